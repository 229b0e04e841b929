/**
 * PostgreSQL through drizzle-orm + pg. createDb opens a pool; migrateDatabase applies drizzle/ under an
 * advisory lock, so several workers starting together migrate once. Only `vetted migrate`, the API and the workers
 * migrate; every other command checks the schema is current and otherwise says to run `vetted migrate`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { VettedError } from '../errors.ts';
import * as schema from './schema/index.ts';
import { fromPackageRoot } from '../util/package-root.ts';
import { notMigrated, redactUrlPassword, serviceUnavailable } from './backing-service-errors.ts';

export { redactUrlPassword, serviceUnavailable };

export type Schema = typeof schema;
export type Db = NodePgDatabase<Schema>;

export const MIGRATIONS_DIR = fromPackageRoot('drizzle');

// An arbitrary constant: the key of the advisory lock that serialises migrations across processes.
const MIGRATION_LOCK_KEY = 73_215_001;

export interface Database {
  db: Db;
  pool: pg.Pool;
  close(): Promise<void>;
  /** Set when the store is PGlite in this process (pglite.ts) rather than a PostgreSQL server. */
  embedded?: EmbeddedStoreInfo;
}

/** What only the embedded store has: where its files are, and a copy of them taken while it runs. */
export interface EmbeddedStoreInfo {
  dataDir: string | undefined;
  /** The data directory as a gzipped tar (PGlite's dump), consistent: taken between two statements. */
  dump(): Promise<Blob>;
}

export function createDb(databaseUrl: string, options: { max?: number } = {}): Database {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: options.max ?? 10 });
  // A client that loses its connection (PostgreSQL restarted) must not crash the process: idle clients
  // report it on the pool, checked-out ones (inside a transaction) on the client itself, and pg-pool only
  // listens while a client is idle. The query in flight fails with the error, and is retried.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = drizzle({ client: pool, schema, casing: 'snake_case' });
  return { db, pool, close: () => pool.end() };
}

/**
 * Opens the database a process works on: creates it if missing and migrates it (unless `migrate` is false, when
 * it only checks the migrations were applied), and checks it answers.
 * @throws VettedError SERVICE_UNAVAILABLE naming PostgreSQL and what to do, that the migrations failed, or that
 * they were never applied (run `vetted migrate`).
 */
export async function openDatabase(databaseUrl: string, options: { max?: number; migrate: boolean }): Promise<Database> {
  if (options.migrate) await ensureDatabaseExists(databaseUrl);
  const database = createDb(databaseUrl, { max: options.max });
  try {
    await database.pool.query('select 1');
  } catch (error) {
    await database.close();
    if ((error as { code?: string }).code === '3D000') throw notMigrated(databaseUrl, 'the database does not exist');
    throw serviceUnavailable('PostgreSQL', databaseUrl, error);
  }
  if (!options.migrate) {
    const behind = await migrationsBehind(database).catch(async (error: unknown) => {
      await database.close();
      throw error;
    });
    if (behind) {
      await database.close();
      throw notMigrated(databaseUrl, behind);
    }
    return database;
  }
  await migrateDatabase(database).catch(async (error: unknown) => {
    await database.close();
    const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message.split('\n')[0]) : String(error);
    throw new VettedError('SERVICE_UNAVAILABLE', `Applying the migrations in drizzle/ failed (${reason}). The database may hold tables from an incompatible build; point DATABASE_URL at a fresh database or fix the schema.`, { cause: error });
  });
  return database;
}

/**
 * Why the database's schema is not the one this build expects (no migrations applied, or older ones), or
 * undefined when it is current. Compares drizzle's own record with the last entry of drizzle/meta/_journal.json,
 * as the migrator does; reads only, so a command that is not meant to change the schema never does.
 */
export async function migrationsBehind(database: Database): Promise<string | undefined> {
  const latest = latestMigration();
  let applied: number | undefined;
  try {
    const result = await database.pool.query<{ created_at: string | null }>('select max(created_at)::text as created_at from drizzle.__drizzle_migrations');
    applied = result.rows[0]?.created_at == null ? undefined : Number(result.rows[0].created_at);
  } catch (error) {
    // 3F000: no drizzle schema, 42P01: no migrations table; either way nothing was ever applied.
    if (!['3F000', '42P01'].includes(String((error as { code?: string }).code))) throw error;
  }
  if (applied === undefined) return 'no migrations have been applied';
  if (applied < latest.when) return `the last migration applied is older than ${latest.tag}`;
  return undefined;
}

function latestMigration(): { when: number; tag: string } {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as { entries: { when: number; tag: string }[] };
  const last = journal.entries.at(-1);
  if (!last) throw new VettedError('INTERNAL', `${MIGRATIONS_DIR}/meta/_journal.json lists no migration`);
  return last;
}

/** PostgreSQL answers (readiness probes). */
export async function pingDatabase(database: Database): Promise<void> {
  await database.pool.query('select 1');
}

export async function migrateDatabase(database: Database): Promise<void> {
  // The lock and the migration share one connection: the lock is per session, and a pool of one would
  // otherwise wait on itself.
  const client = await database.pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await migrate(drizzle({ client, schema, casing: 'snake_case' }), { migrationsFolder: MIGRATIONS_DIR });
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    client.release();
  }
}

/**
 * Creates the database named in the URL when it does not exist (a fresh machine has only the defaults).
 * Connects to the `postgres` maintenance database to do so.
 */
export async function ensureDatabaseExists(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!name || !/^[A-Za-z0-9_-]+$/.test(name)) {
    throw new VettedError('CONFIG_INVALID', `DATABASE_URL names an unusable database "${name}"`, { field: 'DATABASE_URL' });
  }
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  try {
    await client.connect();
  } catch (error) {
    throw serviceUnavailable('PostgreSQL', databaseUrl, error);
  }
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`create database "${name}"`).catch(ignoreDuplicateDatabase);
  } finally {
    await client.end();
  }
}

function ignoreDuplicateDatabase(error: unknown): void {
  // Two processes creating the same database at once: the loser sees 42P04 (duplicate_database).
  if ((error as { code?: string }).code !== '42P04') throw error;
}
