/**
 * Checks an exported audit chain (NDJSON or CSV, told apart by the first character) from the file alone: each
 * record's hash must be the hash of its fields, and each must follow the record before it (its seq one more,
 * its prevHash that record's hash). The first record that fails is named with what happened to it: altered
 * (its fields no longer give its hash, or the next record no longer follows it), removed (a seq is missing), or
 * reordered (a seq comes back later or steps back). An export from the start also pins the first record to
 * seq 1 and the genesis hash; one taken `--since` a time starts wherever it starts.
 */
import { AUDIT_FIELDS, GENESIS_HASH, recordHash, type AuditRecord } from './audit-record.ts';

export type ChainProblem = 'altered' | 'removed' | 'reordered';

export type ChainVerdict =
  | { intact: true; records: number }
  | { intact: false; records: number; line: number; seq: number | null; problem: ChainProblem; message: string };

interface Numbered {
  line: number;
  record: AuditRecord | null;
}

export function verifyAuditChain(text: string): ChainVerdict {
  const rows = parseExport(text);
  const seqs = new Set(rows.map((row) => row.record?.seq));
  for (let i = 0; i < rows.length; i++) {
    const { line, record } = rows[i]!;
    const fail = (problem: ChainProblem, message: string, at = { line, seq: record?.seq ?? null }): ChainVerdict => ({ intact: false, records: rows.length, ...at, problem, message: `line ${at.line}: ${message}` });
    if (!record) return fail('altered', 'is not an audit record (a field is missing or malformed)');
    const { hash, ...fields } = record;
    if (recordHash(fields) !== hash) return fail('altered', `record ${record.seq} was altered (its fields do not give its hash)`);
    const before = rows[i - 1]?.record;
    if (!before) {
      if (record.seq === 1 && record.prevHash !== GENESIS_HASH) return fail('altered', 'record 1 does not start the chain');
      continue;
    }
    if (record.seq <= before.seq) return fail('reordered', `record ${record.seq} comes after record ${before.seq} (reordered)`);
    if (record.seq > before.seq + 1) {
      const missing = before.seq + 1;
      if (seqs.has(missing)) return fail('reordered', `record ${record.seq} comes before record ${missing} (reordered)`);
      return fail('removed', `record${record.seq - missing > 1 ? `s ${missing}–${record.seq - 1} were` : ` ${missing} was`} removed before record ${record.seq}`);
    }
    if (record.prevHash !== before.hash) {
      return fail('altered', `record ${before.seq} was altered (record ${record.seq} does not follow it)`, { line: rows[i - 1]!.line, seq: before.seq });
    }
  }
  return { intact: true, records: rows.length };
}

/** The export's records with their line numbers; a line that is not a record is kept as null. */
function parseExport(text: string): Numbered[] {
  const lines = text.split(/\r?\n/);
  const csv = !text.trimStart().startsWith('{');
  const rows: Numbered[] = [];
  lines.forEach((content, index) => {
    if (content.trim() === '') return;
    if (csv && index === 0 && content === AUDIT_FIELDS.join(',')) return;
    rows.push({ line: index + 1, record: csv ? fromCsv(content) : fromJson(content) });
  });
  return rows;
}

function fromJson(line: string): AuditRecord | null {
  try {
    return asRecord(JSON.parse(line) as Record<string, unknown>);
  } catch {
    return null;
  }
}

function fromCsv(line: string): AuditRecord | null {
  const values = splitCsv(line);
  if (!values || values.length !== AUDIT_FIELDS.length) return null;
  const raw: Record<string, unknown> = Object.fromEntries(AUDIT_FIELDS.map((field, i) => [field, values[i] === '' ? null : values[i]]));
  return asRecord({ ...raw, seq: Number(raw.seq), override: raw.override === 'true' ? true : raw.override === 'false' ? false : raw.override });
}

const TEXT_FIELDS = ['at', 'tenantId', 'type', 'actor', 'action', 'prevHash', 'hash'] as const;
const NULLABLE_FIELDS = ['runId', 'reviewId', 'payloadHash', 'target'] as const;

function asRecord(raw: Record<string, unknown>): AuditRecord | null {
  if (typeof raw !== 'object' || raw === null || !Number.isSafeInteger(raw.seq) || typeof raw.override !== 'boolean') return null;
  if (!TEXT_FIELDS.every((field) => typeof raw[field] === 'string')) return null;
  if (!NULLABLE_FIELDS.every((field) => raw[field] === null || typeof raw[field] === 'string')) return null;
  return Object.fromEntries(AUDIT_FIELDS.map((field) => [field, raw[field]])) as unknown as AuditRecord;
}

/** One CSV line's fields (quoted fields may hold commas and doubled quotes); null when the quoting is broken. */
function splitCsv(line: string): string[] | null {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    if (line[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        const close = line.indexOf('"', i);
        if (close < 0) return null;
        value += line.slice(i, close);
        i = close + 1;
        if (line[i] !== '"') break;
        value += '"';
        i++;
      }
      fields.push(value);
    } else {
      const comma = line.indexOf(',', i);
      fields.push(line.slice(i, comma < 0 ? line.length : comma));
      i = comma < 0 ? line.length : comma;
    }
    if (i >= line.length) return fields;
    if (line[i] !== ',') return null;
    i++;
  }
}
