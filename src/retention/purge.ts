/**
 * Retention purge: for every tenant with `documentsDays`, the documents of its runs that ended longer ago
 * than that are purged (src/db/retention-repository.ts says what goes and what stays), a batch at a time.
 * Run by `vetted purge` and by the maintenance worker's repeatable job (workers/maintenance-processor.ts).
 */
import type { Logger } from '../observability/logger.ts';
import type { Clock } from '../ports.ts';

const BATCH = 200;
const DAY_MS = 86_400_000;

/** The retention room's port for the purge: the tenants' settings, and the purge itself (PostgreSQL's, src/db). */
export interface RetentionPurgeStore {
  /** Every tenant's retention setting; `documentsDays` null keeps documents forever. */
  list(): Promise<{ tenantId: string; documentsDays: number | null }[]>;
  /** Purges the documents of up to `limit` runs that ended before `endedBefore`; the ids of the runs purged. */
  purgeEndedRuns(tenantId: string, endedBefore: Date, limit: number): Promise<string[]>;
}

export interface PurgeDeps {
  retention: RetentionPurgeStore;
  clock: Clock;
  logger: Logger;
}

export interface TenantPurge {
  tenantId: string;
  documentsDays: number;
  /** Runs that ended before this were purged. */
  endedBefore: string;
  purged: number;
}

/** Purges every tenant with a retention period (or only `tenantId`); returns what each purged. */
export async function purgeExpiredDocuments(deps: PurgeDeps, options: { tenantId?: string } = {}): Promise<TenantPurge[]> {
  const settings = (await deps.retention.list()).filter((row) => row.documentsDays !== null && (options.tenantId === undefined || row.tenantId === options.tenantId));
  const results: TenantPurge[] = [];
  for (const setting of settings) {
    const documentsDays = setting.documentsDays!;
    const endedBefore = new Date(deps.clock.now().getTime() - documentsDays * DAY_MS);
    let purged = 0;
    for (;;) {
      const ids = await deps.retention.purgeEndedRuns(setting.tenantId, endedBefore, BATCH);
      purged += ids.length;
      if (ids.length < BATCH) break;
    }
    if (purged > 0) deps.logger.info({ event: 'RETENTION_PURGED', tenantId: setting.tenantId, documentsDays, purged, endedBefore: endedBefore.toISOString() }, 'RETENTION_PURGED');
    results.push({ tenantId: setting.tenantId, documentsDays, endedBefore: endedBefore.toISOString(), purged });
  }
  return results;
}
