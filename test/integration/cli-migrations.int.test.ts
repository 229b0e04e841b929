/**
 * Who migrates: `vetted migrate` (and the API and the workers) apply drizzle/; every other command only reads,
 * and on a database without the schema says to run `vetted migrate` instead of creating tables.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUrl, dropTestDatabase, withAdmin } from '../support/databases.ts';
import { deleteRedisPrefix } from '../support/test-system.ts';

const run = promisify(execFile);
const BIN = path.resolve('bin/vetted.mjs');
// Named like the other test databases (vt_<seconds>_<random>), so a killed run's leftovers are cleaned up.
const name = `vt_${Math.floor(Date.now() / 1000)}_${Math.random().toString(36).slice(2, 10)}`;
const prefix = `vt-${name.slice(3)}`;
const env = { ...process.env, DATABASE_URL: databaseUrl(name), VETTED_QUEUE_PREFIX: prefix, LOG_LEVEL: 'warn' };

async function vetted(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('node', [BIN, ...args], { env, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const databaseExists = () => withAdmin(async (c) => (await c.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1);
const tablesIn = () =>
  withAdmin(async (c) => (await c.query<{ n: number }>("select count(*)::int as n from information_schema.tables where table_schema in ('public', 'drizzle')")).rows[0]!.n, databaseUrl(name));

beforeAll(async () => {
  await dropTestDatabase(name);
});

afterAll(async () => {
  await dropTestDatabase(name);
  await deleteRedisPrefix(prefix);
});

describe('a command on a database that was never migrated', () => {
  it('does not create the database, and says to run `vetted migrate`', async () => {
    const result = await vetted(['runs']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error \[SERVICE_UNAVAILABLE\]: PostgreSQL at .* is not ready for this build \(the database does not exist\): run `vetted migrate`/);
    expect(await databaseExists()).toBe(false);
  });

  it.each([[['runs']], [['keys', 'list']], [['stats']]])('%j on an empty database creates no table and says to run `vetted migrate`', async (args) => {
    await withAdmin((c) => c.query(`create database "${name}"`)).catch((error: { code?: string }) => {
      if (error.code !== '42P04') throw error;
    });
    const result = await vetted(args);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('(no migrations have been applied): run `vetted migrate`');
    expect(await tablesIn()).toBe(0);
  });

  it('`vetted migrate` applies the schema, after which the same command works', async () => {
    const migrated = await vetted(['migrate']);
    expect(migrated).toMatchObject({ code: 0, stdout: 'database is up to date\n' });
    expect(await tablesIn()).toBeGreaterThan(5);
    const listed = await vetted(['runs']);
    expect(listed.code).toBe(0);
  });

  it('a database behind this build (its last migration rolled back in the record) is refused too', async () => {
    await withAdmin((c) => c.query('delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)'), databaseUrl(name));
    const result = await vetted(['runs']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/the last migration applied is older than \d{4}_\w+\): run `vetted migrate`/);
  });
});
