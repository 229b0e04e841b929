/**
 * The audit chain's record, as an export carries it, and its hash. The database computes each hash when the
 * record is written (vetted_audit_write in drizzle/0015_audit_task_reviews.sql); this module computes the same from an
 * exported record, so `vetted audit verify` needs nothing but the file.
 *
 * hash = sha256 hex of the JSON array text (no spaces) of
 *   [prevHash, seq, at, tenantId, runId, reviewId, type, actor, action, override, payloadHash, target]
 * with seq and override as text and absent values as null. The first record of a tenant follows GENESIS_HASH.
 */
import { createHash } from 'node:crypto';
import type { AuditRecord } from '../generated/contracts.ts';

/** The record's contract is in schemas/mcp-tools.schema.json: what the MCP tool answers and an export writes. */
export type { AuditRecord };

export const GENESIS_HASH = '0'.repeat(64);


/** The fields in the order an export writes them (the CSV header). */
export const AUDIT_FIELDS = ['seq', 'at', 'tenantId', 'runId', 'reviewId', 'type', 'actor', 'action', 'override', 'payloadHash', 'target', 'prevHash', 'hash'] as const satisfies readonly (keyof AuditRecord)[];

export function recordHash(record: Omit<AuditRecord, 'hash'>): string {
  const fields = [
    record.prevHash, String(record.seq), record.at, record.tenantId, record.runId, record.reviewId,
    record.type, record.actor, record.action, String(record.override), record.payloadHash, record.target,
  ];
  return createHash('sha256').update(JSON.stringify(fields), 'utf8').digest('hex');
}

/** The audit room's port: a tenant's records in chain order, a page at a time (PostgreSQL's, src/db/audit-trail.ts). */
export interface AuditTrail {
  /** Up to `limit` records of the tenant after `afterSeq`, at or after `since` when given, by seq. */
  page(tenantId: string, options: { afterSeq: number; since?: Date; limit: number }): Promise<AuditRecord[]>;
}
