/**
 * What the retention room keeps per tenant, and the repository it needs: defined here, by the room that uses
 * them. The table (src/db/schema/retention.ts) is checked against TenantRetentionRow at compile time (SameShape),
 * and src/db/retention-repository.ts implements RetentionRepository.
 */
import type { RetentionPurgeStore } from './purge.ts';

export interface TenantRetentionRow {
  tenantId: string;
  /** Documents of terminal runs older than this many days are purged; null keeps them forever. */
  documentsDays: number | null;
  /** Mask email addresses and phone numbers in stored free text (prompt, conversation, chat replies). */
  maskPii: boolean;
  updatedBy: string;
  updatedAt: Date;
}

export type RetentionSettingsInput = Omit<TenantRetentionRow, 'updatedAt'>;

/** The tenants' settings, and the purge (RetentionPurgeStore) that acts on them. */
export interface RetentionRepository extends RetentionPurgeStore {
  get(tenantId: string): Promise<TenantRetentionRow | undefined>;
  list(): Promise<TenantRetentionRow[]>;
  upsert(input: RetentionSettingsInput): Promise<TenantRetentionRow>;
}
