/**
 * A tenant's retention settings (`vetted retention set`, PATCH /api/retention): how long run documents are kept
 * after a run ends, and whether PII in stored text is masked. A change names only what changes; the rest keeps
 * its value, so two admins changing different settings do not undo each other.
 */
import { VettedError } from '../errors.ts';
import { assertTenantId } from '../tenants.ts';
import type { RetentionRepository, TenantRetentionRow } from './retention-rows.ts';

export const MAX_DOCUMENTS_DAYS = 36_500;

/** What changes: documentsDays null keeps documents forever. */
export interface RetentionChange {
  documentsDays?: number | null;
  maskPii?: boolean;
}

/** The settings as the API shows them: the defaults (kept forever, not masked) where nothing was saved. */
export interface RetentionView {
  tenantId: string;
  documentsDays: number | null;
  maskPii: boolean;
  updatedBy: string | null;
  updatedAt: string | null;
}

export function retentionView(tenantId: string, row: TenantRetentionRow | undefined): RetentionView {
  return { tenantId, documentsDays: row?.documentsDays ?? null, maskPii: row?.maskPii ?? false, updatedBy: row?.updatedBy ?? null, updatedAt: row?.updatedAt.toISOString() ?? null };
}

export async function retentionOf(store: Pick<RetentionRepository, 'get'>, tenantId: string): Promise<RetentionView> {
  return retentionView(tenantId, await store.get(tenantId));
}

/**
 * Saves the fields given; the others keep their value.
 * @throws VettedError INVALID_REQUEST naming `documentsDays` (a whole number of days, 1 to 36500, or null).
 */
export async function changeRetention(store: Pick<RetentionRepository, 'get' | 'upsert'>, tenantId: string, change: RetentionChange, actor: string): Promise<RetentionView> {
  assertTenantId(tenantId);
  const days = change.documentsDays;
  if (days !== undefined && days !== null && (!Number.isInteger(days) || days < 1 || days > MAX_DOCUMENTS_DAYS)) {
    throw new VettedError('INVALID_REQUEST', `documentsDays must be a whole number of days from 1 to ${MAX_DOCUMENTS_DAYS}, or null to keep documents forever`, { field: 'documentsDays' });
  }
  const current = await store.get(tenantId);
  const row = await store.upsert({
    tenantId,
    documentsDays: days === undefined ? (current?.documentsDays ?? null) : days,
    maskPii: change.maskPii ?? current?.maskPii ?? false,
    updatedBy: actor,
  });
  return retentionView(tenantId, row);
}

/** What `vetted retention set` prints, on the store or through the API. */
export function describeRetention(view: Pick<RetentionView, 'tenantId' | 'documentsDays' | 'maskPii'>): string {
  const documents = view.documentsDays === null ? 'kept forever' : `purged ${view.documentsDays} days after a run ends`;
  return `tenant ${view.tenantId}: documents ${documents}; PII masking ${view.maskPii ? 'on' : 'off'}`;
}
