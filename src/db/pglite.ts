/**
 * The embedded store: PostgreSQL compiled to WebAssembly (PGlite), in this process, behind a real pg.Pool.
 * PGlite's node-postgres adapter hands pg a connection that speaks the wire protocol to PGlite instead of a
 * socket, so node-postgres parses every value as it does against a server, drizzle runs on the same driver,
 * and every repository in src/db runs unchanged, on the same migrations (drizzle/, under the same advisory
 * lock: PGlite has them).
 *
 * PGlite is one session: the pool holds one client, so a transaction holds the whole database and every
 * other query waits for its commit (transactions are serialised). Nothing here is for more than one process.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PglitePgConnection } from '@electric-sql/pglite/node-postgres';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { VettedError } from '../errors.ts';
import { migrateDatabase, type Database } from './client.ts';
import * as schema from './schema/index.ts';
import { isProcessAlive } from '../util/process-alive.ts';

export interface EmbeddedDatabaseOptions {
  /** Where PGlite keeps its files; undefined keeps everything in memory (gone when the process ends). */
  dataDir?: string;
}

/**
 * A query waiting longer than this for the one connection means a transaction waits on a query outside it (a
 * bug that would hang forever): it fails with pg's "timeout exceeded when trying to connect" instead.
 */
const CONNECTION_WAIT_MS = 120_000;

/**
 * pg hands `parse` the query's type parsers (drizzle passes an object with getTypeParser) under `types`,
 * where PGlite's serializer expects an array of parameter type ids and calls forEach on it. pg's own
 * serializer reads only `.length`, so an object means "no parameter types": say so with an empty list.
 */
class PgliteConnection extends PglitePgConnection {
  override parse(query: { types?: unknown }): void {
    super.parse(Array.isArray(query.types) ? query : { ...query, types: [] });
  }
}

/**
 * Opens (creating if missing) the embedded database and migrates it.
 * @throws VettedError SERVICE_UNAVAILABLE when the data directory is used by another process or cannot be
 *   opened, or the migrations fail.
 */
export async function openEmbeddedDatabase(options: EmbeddedDatabaseOptions = {}): Promise<Database> {
  const dataDir = options.dataDir === undefined ? undefined : path.resolve(options.dataDir);
  const releaseLock = dataDir ? lockDataDir(dataDir) : () => undefined;
  let lite: PGlite;
  try {
    lite = await PGlite.create(dataDir ?? 'memory://');
  } catch (error) {
    releaseLock();
    throw new VettedError('SERVICE_UNAVAILABLE', `The embedded database at ${dataDir} could not be opened (${(error as Error).message}); choose another --data-dir or remove it`, { cause: error, field: 'data-dir' });
  }
  // One client that never idles out: PGlite has one session, and the adapter one connection object to give.
  const pool = new pg.Pool({ connection: new PgliteConnection({ pglite: lite }), max: 1, idleTimeoutMillis: 0, connectionTimeoutMillis: CONNECTION_WAIT_MS } as pg.PoolConfig);
  pool.on('error', () => undefined);
  const close = async () => {
    await pool.end().catch(() => undefined);
    await lite.close().catch(() => undefined);
    releaseLock();
  };
  const database: Database = { db: drizzle({ client: pool, schema, casing: 'snake_case' }), pool, close, embedded: { dataDir, dump: () => dumpStore(pool, lite) } };
  await migrateDatabase(database).catch(async (error: unknown) => {
    await close();
    throw new VettedError('SERVICE_UNAVAILABLE', `Applying the migrations in drizzle/ to the embedded database failed (${(error as Error).message})`, { cause: error });
  });
  return database;
}

/**
 * Unpacks a dump (dumpStore's gzipped tar) into a data directory that is empty or missing, then opens it the
 * usual way (migrating it, should the dump come from an older build).
 * @throws VettedError INVALID_REQUEST when the directory holds files; SERVICE_UNAVAILABLE when the dump is not one.
 */
export async function restoreEmbeddedDatabase(dump: Blob, dataDir: string): Promise<Database> {
  const dir = path.resolve(dataDir);
  const release = lockDataDir(dir);
  try {
    if (readdirSync(dir).length > 0) throw new VettedError('INVALID_REQUEST', `--data-dir ${dir} is not empty; restore into a new directory (a store is never overwritten)`, { field: 'data-dir' });
    const lite = await PGlite.create(dir, { loadDataDir: dump }).catch((error: unknown) => {
      rmSync(dir, { recursive: true, force: true });
      throw new VettedError('INVALID_REQUEST', `The backup could not be unpacked (${(error as Error).message}); is it a file \`vetted store backup\` wrote?`, { cause: error, field: 'file' });
    });
    await lite.close();
  } finally {
    release();
  }
  return openEmbeddedDatabase({ dataDir: dir });
}

/**
 * PGlite dumps between two statements; the pool's one connection is taken first, so no transaction is open
 * while it does (a dump inside one would hold its uncommitted half).
 */
async function dumpStore(pool: pg.Pool, lite: PGlite): Promise<Blob> {
  const client = await pool.connect();
  try {
    return await lite.dumpDataDir('gzip');
  } finally {
    client.release();
  }
}

/**
 * PGlite's files belong to one process: a second one would corrupt them. A pid file claims the directory;
 * one left by a process that is gone is taken over.
 * @returns the release function.
 */
function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockFile = path.join(path.dirname(dataDir), `.${path.basename(dataDir)}.vetted.pid`);
  const holder = readHolder(lockFile);
  if (holder !== undefined && holder !== process.pid && isProcessAlive(holder)) {
    throw new VettedError('SERVICE_UNAVAILABLE', `The embedded database at ${dataDir} is in use by process ${holder}; stop it or choose another --data-dir`, { field: 'data-dir' });
  }
  writeFileSync(lockFile, String(process.pid));
  return () => {
    if (readHolder(lockFile) === process.pid) rmSync(lockFile, { force: true });
  };
}

function readHolder(lockFile: string): number | undefined {
  try {
    const pid = Number(readFileSync(lockFile, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
