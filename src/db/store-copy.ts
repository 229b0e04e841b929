/**
 * Copies a whole store to another, table by table, driven by the drizzle schema: the embedded store (PGlite)
 * to PostgreSQL when a team outgrows one process, and back. Both sides run the same migrations, so a table has
 * the same columns in the same order on both, and a row travels as JSON (row_to_json on one side,
 * json_populate_recordset on the other): every type PostgreSQL has round-trips without code per table.
 *
 * The whole copy is one transaction on the target: a failure (or a verification that does not match) leaves
 * the target as it was. After the copy, every table's row count and content hash are compared on both sides.
 */
import { getTableName, is } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { VettedError } from '../errors.ts';
import type { Database } from './client.ts';
import * as schema from './schema/index.ts';

export interface TableSummary {
  table: string;
  rows: number;
  /** md5 over the md5 of each row's JSON, in order: equal on both sides when the contents are. */
  hash: string;
}

export interface CopyOptions {
  /** Empty a target that holds data first; without it, a target with any row is refused. */
  replace?: boolean;
  /** Rows per round trip. */
  batch?: number;
}

const DEFAULT_BATCH = 500;

/** The schema's tables, by name but parents before children (a foreign key's table before the table that references it). */
export function storeTables(): PgTable[] {
  // By name first: the order must not depend on how a bundler lists a module's exports.
  const tables = Object.values(schema as Record<string, unknown>)
    .filter((value): value is PgTable => is(value, PgTable))
    .sort((a, b) => getTableName(a).localeCompare(getTableName(b)));
  const ordered: PgTable[] = [];
  const visit = (table: PgTable, path: Set<PgTable>) => {
    if (ordered.includes(table) || path.has(table)) return;
    path.add(table);
    for (const key of getTableConfig(table).foreignKeys) {
      const parent = key.reference().foreignTable;
      if (parent !== table) visit(parent, path);
    }
    ordered.push(table);
  };
  for (const table of tables) visit(table, new Set());
  return ordered;
}

/**
 * Copies every table of `source` into `target`, then verifies counts and hashes.
 * @returns the per-table summary (equal on both sides).
 * @throws VettedError INVALID_REQUEST when the target holds data and `replace` is not set; INTERNAL when the store
 *   has a table the schema does not know, or the verification finds a difference.
 */
export async function copyStore(source: Database, target: Database, options: CopyOptions = {}): Promise<TableSummary[]> {
  const tables = storeTables().map((table) => getTableName(table));
  const from = await source.pool.connect();
  const to = await target.pool.connect();
  try {
    await from.query("begin isolation level repeatable read read only; set local timezone = 'UTC'");
    await to.query("begin; set local timezone = 'UTC'");
    await checkTablesKnown(from, tables, 'source');
    await checkTablesKnown(to, tables, 'target');
    await prepareTarget(to, tables, options.replace === true);
    // The rows arrive as they are, derived rows included (the audit chain a trigger on run_events writes): the
    // target's own triggers would write them a second time.
    for (const table of tables) await to.query(`alter table ${quote(table)} disable trigger user`);
    for (const table of tables) await copyTable(from, to, table, options.batch ?? DEFAULT_BATCH);
    for (const table of tables) await to.query(`alter table ${quote(table)} enable trigger user`);
    await resetSequences(to, tables);
    const [sourceSummary, targetSummary] = [await summarise(from, tables), await summarise(to, tables)];
    const differences = sourceSummary.filter((row, i) => row.rows !== targetSummary[i]?.rows || row.hash !== targetSummary[i]?.hash);
    if (differences.length > 0) {
      throw new VettedError('INTERNAL', `The copy does not match its source in ${differences.map((d) => d.table).join(', ')}; nothing was written to the target`);
    }
    await to.query('commit');
    return targetSummary;
  } catch (error) {
    await to.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    await from.query('rollback').catch(() => undefined);
    from.release();
    to.release();
  }
}

/** Row counts and content hashes of every table of a store (to check a backup or a copy). */
export async function summariseStore(database: Database): Promise<TableSummary[]> {
  const client = await database.pool.connect();
  try {
    await client.query("begin isolation level repeatable read read only; set local timezone = 'UTC'");
    return await summarise(client, storeTables().map((table) => getTableName(table)));
  } finally {
    await client.query('rollback').catch(() => undefined);
    client.release();
  }
}

/** A table in the database that the schema does not name would be left behind silently: refuse instead. */
async function checkTablesKnown(client: pg.PoolClient, tables: string[], side: string): Promise<void> {
  const { rows } = await client.query<{ name: string }>("select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'");
  const unknown = rows.map((r) => r.name).filter((name) => !tables.includes(name));
  if (unknown.length > 0) throw new VettedError('INTERNAL', `The ${side} store has tables this build does not know (${unknown.join(', ')}); use the build that created them`);
}

async function prepareTarget(client: pg.PoolClient, tables: string[], replace: boolean): Promise<void> {
  const holding: string[] = [];
  for (const table of tables) {
    const { rowCount } = await client.query(`select 1 from ${quote(table)} limit 1`);
    if (rowCount) holding.push(table);
  }
  if (holding.length === 0) return;
  if (!replace) {
    throw new VettedError('INVALID_REQUEST', `The target store is not empty (${holding.join(', ')} hold rows); point --to at an empty store, or add --replace to delete what it holds`, { field: 'to' });
  }
  await client.query(`truncate ${tables.map(quote).join(', ')} restart identity cascade`);
}

/** Streams one table through a cursor, inserting each batch as one JSON array. */
async function copyTable(from: pg.PoolClient, to: pg.PoolClient, table: string, batch: number): Promise<void> {
  const cursor = `copy_${table}`;
  await from.query(`declare ${quote(cursor)} no scroll cursor for select row_to_json(t)::text as r from ${quote(table)} t`);
  try {
    for (;;) {
      const { rows } = await from.query<{ r: string }>(`fetch ${batch} from ${quote(cursor)}`);
      if (rows.length === 0) break;
      await to.query(`insert into ${quote(table)} select * from json_populate_recordset(null::${quote(table)}, $1::json)`, [`[${rows.map((row) => row.r).join(',')}]`]);
    }
  } finally {
    await from.query(`close ${quote(cursor)}`);
  }
}

/** A serial column's sequence must continue after the copied ids, or the next insert collides. */
async function resetSequences(client: pg.PoolClient, tables: string[]): Promise<void> {
  const { rows } = await client.query<{ table: string; column: string; sequence: string }>(
    `select c.table_name as table, c.column_name as column, pg_get_serial_sequence(quote_ident(c.table_name), c.column_name) as sequence
       from information_schema.columns c
      where c.table_schema = 'public' and c.table_name = any($1) and pg_get_serial_sequence(quote_ident(c.table_name), c.column_name) is not null`,
    [tables],
  );
  for (const row of rows) {
    // is_called false on an empty table: the next value is the sequence's first.
    await client.query(`select setval($1, coalesce((select max(${quote(row.column)}) from ${quote(row.table)}), 1), (select count(*) > 0 from ${quote(row.table)}))`, [row.sequence]);
  }
}

async function summarise(client: pg.PoolClient, tables: string[]): Promise<TableSummary[]> {
  const summary: TableSummary[] = [];
  for (const table of tables) {
    const { rows } = await client.query<{ rows: number; hash: string }>(
      `select count(*)::int as rows, md5(coalesce(string_agg(h, '' order by h), '')) as hash
         from (select md5(row_to_json(t)::text) as h from ${quote(table)} t) hashed`,
    );
    summary.push({ table, rows: rows[0]?.rows ?? 0, hash: rows[0]?.hash ?? '' });
  }
  return summary;
}

function quote(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}
