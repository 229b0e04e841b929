/**
 * An export of a tenant's audit chain as text lines, streamed a page at a time: NDJSON (one record per line) or
 * CSV (a header, then one record per line). The API's GET /api/audit and `vetted audit export` both write these.
 */
import { AUDIT_FIELDS, type AuditRecord, type AuditTrail } from './audit-record.ts';

export type AuditFormat = 'ndjson' | 'csv';
export const AUDIT_FORMATS: readonly AuditFormat[] = ['ndjson', 'csv'];

const PAGE = 500;

export interface AuditExportOptions {
  format: AuditFormat;
  since?: Date;
}

/** The export's lines, each ending in a newline; reads the next page only when the reader wants more. */
export async function* auditExportLines(trail: AuditTrail, tenantId: string, options: AuditExportOptions): AsyncGenerator<string> {
  if (options.format === 'csv') yield `${AUDIT_FIELDS.join(',')}\n`;
  let afterSeq = 0;
  for (;;) {
    const page = await trail.page(tenantId, { afterSeq, since: options.since, limit: PAGE });
    for (const record of page) yield `${options.format === 'csv' ? csvLine(record) : JSON.stringify(ordered(record))}\n`;
    if (page.length < PAGE) return;
    afterSeq = page[page.length - 1]!.seq;
  }
}

/** One page of the chain for a reader that pages itself (the MCP tool), with where the next page starts. */
export async function auditPage(trail: AuditTrail, tenantId: string, options: { afterSeq: number; since?: Date; limit: number }): Promise<{ records: AuditRecord[]; nextAfterSeq?: number }> {
  // One record more than asked says whether another page follows, without a count over the whole chain.
  const read = await trail.page(tenantId, { ...options, limit: options.limit + 1 });
  const records = read.slice(0, options.limit).map((record) => ordered(record) as unknown as AuditRecord);
  return read.length > options.limit ? { records, nextAfterSeq: records[records.length - 1]!.seq } : { records };
}

/** The record with its fields in export order (what a person reads first: seq, at, who). */
function ordered(record: AuditRecord): Record<string, unknown> {
  return Object.fromEntries(AUDIT_FIELDS.map((field) => [field, record[field]]));
}

function csvLine(record: AuditRecord): string {
  return AUDIT_FIELDS.map((field) => csvField(record[field])).join(',');
}

function csvField(value: string | number | boolean | null): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
