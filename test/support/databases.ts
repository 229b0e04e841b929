/**
 * Per-file test databases, cloned from a template that is migrated once per migrations change.
 * CREATE DATABASE ... TEMPLATE is a file copy, far faster than migrating each time.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { createDb, migrateDatabase, MIGRATIONS_DIR } from '../../src/db/client.ts';

export const ADMIN_URL = process.env.VETTED_TEST_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const TEST_DB_PREFIX = 'vt_';
const STALE_AFTER_SECONDS = 3600;

export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Template name changes whenever a migration file does, so a stale template is never reused. */
export function templateName(): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(MIGRATIONS_DIR, { recursive: true }).map(String).sort()) {
    if (file.endsWith('.sql') || file.endsWith('.json')) hash.update(file).update(readFileSync(path.join(MIGRATIONS_DIR, file)));
  }
  return `vetted_tpl_${hash.digest('hex').slice(0, 12)}`;
}

/** Runs `fn` on one connection to the admin database (or to `url`), always closing it. */
export async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>, url = ADMIN_URL): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function ensureTemplate(): Promise<string> {
  const name = templateName();
  const exists = await withAdmin(async (c) => (await c.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1);
  if (exists) return name;
  // Build under a scratch name and rename when complete, so an interrupted run never leaves a template
  // that exists but lacks tables.
  const scratch = `${name}_build_${process.pid}`;
  await withAdmin((c) => c.query(`drop database if exists "${scratch}" with (force)`).then(() => c.query(`create database "${scratch}"`)));
  const database = createDb(databaseUrl(scratch), { max: 1 });
  try {
    await migrateDatabase(database);
  } finally {
    await database.close();
  }
  await withAdmin(async (c) => {
    try {
      await c.query(`alter database "${scratch}" rename to "${name}"`);
    } catch (error) {
      // Another run finished the same template first: keep theirs.
      if ((error as { code?: string }).code !== '42P04') throw error;
      await c.query(`drop database if exists "${scratch}" with (force)`);
    }
  });
  return name;
}

/** Drops test databases left behind by runs that were killed before their teardown. */
export async function dropStaleTestDatabases(): Promise<void> {
  const cutoff = Math.floor(Date.now() / 1000) - STALE_AFTER_SECONDS;
  await withAdmin(async (c) => {
    const { rows } = await c.query<{ datname: string }>("select datname from pg_database where datname like 'vt\\_%'");
    for (const { datname } of rows) {
      const created = Number(datname.split('_')[1]);
      if (Number.isFinite(created) && created < cutoff) await c.query(`drop database if exists "${datname}" with (force)`);
    }
  });
}

export async function createTestDatabase(): Promise<string> {
  const name = `${TEST_DB_PREFIX}${Math.floor(Date.now() / 1000)}_${Math.random().toString(36).slice(2, 10)}`;
  await withAdmin((c) => c.query(`create database "${name}" template "${templateName()}"`));
  return name;
}

export async function dropTestDatabase(name: string): Promise<void> {
  await withAdmin((c) => c.query(`drop database if exists "${name}" with (force)`));
}
