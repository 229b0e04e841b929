/**
 * `vetted secrets rotate`: every sealed value stored anywhere (runs and their documents, events, decisions, the executions
 * ledger, shadow reports) is opened with the key that sealed it and sealed again under the current
 * VETTED_DATA_KEY. Rows are read in key order, a batch at a time, and only rows that changed are written, so
 * running it twice does nothing the second time and an interrupted run can simply be started again.
 */
import type pg from 'pg';
import { resealAll, SEALED_PREFIX, type Sealer } from '../secrets/sealer.ts';

interface SealedTable {
  table: string;
  key: readonly string[];
  columns: readonly string[];
}

/** Every JSON column a sealed value can reach (run-sealing.ts seals them; a provider's echo lands in results). */
const SEALED_TABLES: readonly SealedTable[] = [
  { table: 'runs', key: ['id'], columns: ['pending_review', 'review_edits'] },
  { table: 'run_documents', key: ['run_id', 'kind'], columns: ['body'] },
  { table: 'run_events', key: ['id'], columns: ['data'] },
  { table: 'decisions', key: ['id'], columns: ['raw', 'parsed', 'edits', 'review'] },
  { table: 'executions', key: ['run_id', 'step'], columns: ['result'] },
  { table: 'shadow_reports', key: ['id'], columns: ['v2_payload', 'v3_payload', 'diff', 'leaks', 'v3_leaks'] },
];

const BATCH = 500;

export interface RotationReport {
  /** Rows re-sealed, by table. */
  resealed: Record<string, number>;
  /** Rows that hold sealed values, by table (all under the current key once this is done). */
  sealed: Record<string, number>;
}

/** @throws VettedError CONFIG_INVALID when a value was sealed under a key that is not configured. */
export async function rotateSealedValues(pool: pg.Pool, sealer: Sealer, onProgress: (table: string, rows: number) => void = () => undefined): Promise<RotationReport> {
  const report: RotationReport = { resealed: {}, sealed: {} };
  for (const spec of SEALED_TABLES) {
    const { resealed, sealed } = await rotateTable(pool, sealer, spec, onProgress);
    report.resealed[spec.table] = resealed;
    report.sealed[spec.table] = sealed;
  }
  return report;
}

async function rotateTable(pool: pg.Pool, sealer: Sealer, spec: SealedTable, onProgress: (table: string, rows: number) => void) {
  const keyList = spec.key.join(', ');
  const holdsSealed = spec.columns.map((column) => `${column}::text like '%${SEALED_PREFIX}%'`).join(' or ');
  let after: unknown[] | undefined;
  let resealed = 0;
  let sealed = 0;
  for (;;) {
    const afterClause = after ? `and (${keyList}) > (${spec.key.map((_, i) => `$${i + 1}`).join(', ')})` : '';
    const { rows } = await pool.query<Record<string, unknown>>(
      `select ${keyList}, ${spec.columns.join(', ')} from ${spec.table} where (${holdsSealed}) ${afterClause} order by ${keyList} limit ${BATCH}`,
      after ?? [],
    );
    for (const row of rows) {
      sealed++;
      const changed = spec.columns.filter((column) => row[column] !== null && resealAll(sealer, row[column]) !== row[column]);
      if (changed.length === 0) continue;
      const values = changed.map((column) => JSON.stringify(resealAll(sealer, row[column])));
      const keyValues = spec.key.map((key) => row[key]);
      await pool.query(
        `update ${spec.table} set ${changed.map((column, i) => `${column} = $${i + 1}::jsonb`).join(', ')} where (${keyList}) = (${spec.key.map((_, i) => `$${changed.length + i + 1}`).join(', ')})`,
        [...values, ...keyValues],
      );
      resealed++;
    }
    onProgress(spec.table, sealed);
    if (rows.length < BATCH) return { resealed, sealed };
    const last = rows.at(-1)!;
    after = spec.key.map((key) => last[key]);
  }
}
