/**
 * PostgreSQL through drizzle-orm + pg. createDb opens a pool; migrateDatabase applies drizzle/ under an
 * advisory lock, so several workers starting together migrate once.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { VettedError } from '../errors.ts';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
export type Db = NodePgDatabase<Schema>;

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'drizzle');

// An arbitrary constant: the key of the advisory lock that serialises migrations across processes.
const MIGRATION_LOCK_KEY = 73_215_001;

export interface Database {
  db: Db;
  pool: pg.Pool;
  close(): Promise<void>;
  /** Set when the store is PGlite in this process (pglite.ts) rather than a PostgreSQL server. */
  embedded?: { dataDir: string | undefined };
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
 * Opens the database a process works on: creates it if missing and migrates it (unless `migrate` is false),
 * and checks it answers.
 * @throws VettedError SERVICE_UNAVAILABLE naming PostgreSQL and what to do, or that the migrations failed.
 */
export async function openDatabase(databaseUrl: string, options: { max?: number; migrate: boolean }): Promise<Database> {
  if (options.migrate) await ensureDatabaseExists(databaseUrl);
  const database = createDb(databaseUrl, { max: options.max });
  try {
    await database.pool.query('select 1');
  } catch (error) {
    await database.close();
    throw serviceUnavailable('PostgreSQL', databaseUrl, error);
  }
  if (!options.migrate) return database;
  await migrateDatabase(database).catch(async (error: unknown) => {
    await database.close();
    const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message.split('\n')[0]) : String(error);
    throw new VettedError('SERVICE_UNAVAILABLE', `Applying the migrations in drizzle/ failed (${reason}). The database may hold tables from an incompatible build; point DATABASE_URL at a fresh database or fix the schema.`, { cause: error });
  });
  return database;
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

/** A clear error for an unreachable backing service: what failed, where, and what to do next. */
export function serviceUnavailable(service: 'PostgreSQL' | 'Redis', url: string, cause: unknown): VettedError {
  const safeUrl = redactUrlPassword(url);
  const hint =
    service === 'PostgreSQL'
      ? 'start it (pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start, or docker compose up -d) or set DATABASE_URL'
      : 'start it (redis-server --daemonize yes, or docker compose up -d) or set REDIS_URL';
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new VettedError('SERVICE_UNAVAILABLE', `${service} is not reachable at ${safeUrl} (${reason}): ${hint}`, { cause });
}

export function redactUrlPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    // Not a WHATWG URL (redis+cluster://user:secret@a:7000,b:7001 has several hosts): hide the userinfo's password.
    return url.replace(/^([a-z+]+:\/\/[^:@/]*:)[^@/]*@/i, '$1***@');
  }
}
