/** The audit chain's verifier on exports built here: intact, edited, removed, swapped, a broken CSV line. */
import { describe, expect, it } from 'vitest';
import { AUDIT_FIELDS, GENESIS_HASH, recordHash, type AuditRecord } from '../../src/audit/audit-record.ts';
import { verifyAuditChain } from '../../src/audit/audit-verify.ts';

function chain(count: number): AuditRecord[] {
  const records: AuditRecord[] = [];
  let prevHash = GENESIS_HASH;
  for (let seq = 1; seq <= count; seq++) {
    const fields = {
      seq, at: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(), tenantId: 'acme', runId: '00000000-0000-4000-8000-000000000001',
      reviewId: seq % 3 === 0 ? null : '00000000-0000-4000-8000-000000000002', type: 'review.claimed', actor: 'reviewer:rv_a,"b"', action: 'claim',
      override: false, payloadHash: 'ab'.repeat(32), target: null, prevHash,
    };
    const record = { ...fields, hash: recordHash(fields) };
    records.push(record);
    prevHash = record.hash;
  }
  return records;
}

const ndjson = (records: AuditRecord[]) => records.map((r) => JSON.stringify(r)).join('\n');
const csvValue = (value: unknown) => (value === null ? '' : /[",]/.test(String(value)) ? `"${String(value).replace(/"/g, '""')}"` : String(value));
const csv = (records: AuditRecord[]) => [AUDIT_FIELDS.join(','), ...records.map((r) => AUDIT_FIELDS.map((f) => csvValue(r[f])).join(','))].join('\n');

describe('verifyAuditChain', () => {
  it('says an untouched export is intact, in NDJSON and in CSV (quoted fields, empty for null)', () => {
    expect(verifyAuditChain(ndjson(chain(20)))).toEqual({ intact: true, records: 20 });
    expect(verifyAuditChain(csv(chain(20)))).toEqual({ intact: true, records: 20 });
    expect(verifyAuditChain(ndjson(chain(20).slice(5)))).toEqual({ intact: true, records: 15 });
  });

  it('names an edited record', () => {
    const records = chain(10);
    records[4] = { ...records[4]!, actor: 'reviewer:rv_mallory' };
    expect(verifyAuditChain(ndjson(records))).toMatchObject({ intact: false, line: 5, seq: 5, problem: 'altered' });
  });

  it('names the record before one whose hash was recomputed after an edit', () => {
    const records = chain(10);
    const { hash: _, ...fields } = { ...records[4]!, action: 'approve' };
    records[4] = { ...fields, hash: recordHash(fields) };
    expect(verifyAuditChain(ndjson(records))).toMatchObject({ intact: false, line: 5, seq: 5, problem: 'altered' });
  });

  it('names a removed record and a swapped pair', () => {
    const records = chain(10);
    expect(verifyAuditChain(ndjson(records.filter((r) => r.seq !== 4)))).toMatchObject({ intact: false, line: 4, seq: 5, problem: 'removed', message: 'line 4: record 4 was removed before record 5' });
    expect(verifyAuditChain(ndjson(records.filter((r) => r.seq !== 4 && r.seq !== 5)))).toMatchObject({ problem: 'removed', message: 'line 4: records 4–5 were removed before record 6' });
    const swapped = [...records.slice(0, 6), records[7]!, records[6]!, ...records.slice(8)];
    expect(verifyAuditChain(csv(swapped))).toMatchObject({ intact: false, line: 8, seq: 8, problem: 'reordered' });
  });

  it('refuses a line that is not a record, and a first record that does not start the chain', () => {
    expect(verifyAuditChain(`${ndjson(chain(3))}\nnot json`)).toMatchObject({ intact: false, line: 4, problem: 'altered' });
    const [first] = chain(1);
    const fields = { ...first!, prevHash: 'f'.repeat(64) };
    const { hash: _, ...rest } = fields;
    expect(verifyAuditChain(JSON.stringify({ ...rest, hash: recordHash(rest) }))).toMatchObject({ intact: false, line: 1, problem: 'altered' });
  });
});
