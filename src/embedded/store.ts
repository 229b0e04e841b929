/**
 * The store as a whole, for `vetted store`: moving a team's data from the embedded store to PostgreSQL (and
 * back), backups of the embedded store and their restore. A store is named by where it lives: a postgres://
 * URL, or the directory of an embedded store.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { openDatabase, redactUrlPassword, type Database } from '../db/client.ts';
import { openEmbeddedDatabase, restoreEmbeddedDatabase } from '../db/pglite.ts';
import { copyStore, summariseStore, type TableSummary } from '../db/store-copy.ts';
import { VettedError } from '../errors.ts';

export type { TableSummary };

export function isPostgresUrl(store: string): boolean {
  return /^postgres(ql)?:\/\//.test(store);
}

/** How a store is named in messages: a URL without its password, a directory as an absolute path. */
export function describeStore(store: string): string {
  return isPostgresUrl(store) ? redactUrlPassword(store) : path.resolve(store);
}

/**
 * Opens a store, migrating it (a fresh PostgreSQL database gets the schema; both sides of a move must be on
 * this build's).
 * @throws VettedError SERVICE_UNAVAILABLE when it cannot be reached, or is held by a running embedded API.
 */
export async function openStore(store: string): Promise<Database> {
  if (isPostgresUrl(store)) return openDatabase(store, { max: 2, migrate: true });
  return openEmbeddedDatabase({ dataDir: store }).catch((error: unknown) => {
    if (error instanceof VettedError && error.message.includes('in use by process')) {
      throw new VettedError('SERVICE_UNAVAILABLE', `${error.message}. Stop the embedded API (Ctrl-C) before moving its store: a move copies a store nobody is writing to`, { field: 'from', cause: error });
    }
    throw error;
  });
}

export interface MoveInput {
  from: string;
  to: string;
  replace?: boolean;
}

/**
 * Copies every table of one store into another and verifies the copy (counts and hashes). The source is kept.
 * @throws VettedError INVALID_REQUEST when both name the same store, or the target holds data without `replace`.
 */
export async function moveStore(input: MoveInput): Promise<TableSummary[]> {
  if (describeStore(input.from) === describeStore(input.to)) throw new VettedError('INVALID_REQUEST', '--from and --to name the same store; --to must be another one', { field: 'to' });
  const source = await openStore(input.from);
  try {
    const target = await openStore(input.to);
    try {
      return await copyStore(source, target, { replace: input.replace });
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}

/** Row counts and hashes of a store's tables (what `vetted store check` prints). */
export async function checkStore(store: string): Promise<TableSummary[]> {
  const database = await openStore(store);
  try {
    return await summariseStore(database);
  } finally {
    await database.close();
  }
}

/**
 * Writes a backup of an embedded store nobody holds (a running API takes its own, see the admin backup route).
 * @returns the store's summary at the time of the backup.
 */
export async function backupStore(dataDir: string, file: string): Promise<TableSummary[]> {
  if (isPostgresUrl(dataDir)) throw new VettedError('INVALID_REQUEST', '--data-dir names an embedded store; back PostgreSQL up with pg_dump', { field: 'data-dir' });
  const database = await openStore(dataDir);
  try {
    const summary = await summariseStore(database);
    await writeBackup(database, file);
    return summary;
  } finally {
    await database.close();
  }
}

/** Dumps an open embedded store to `file`. */
export async function writeBackup(database: Database, file: string): Promise<void> {
  if (!database.embedded) throw new VettedError('INVALID_REQUEST', 'Only the embedded store is backed up by Vetted; back PostgreSQL up with pg_dump');
  const dump = await database.embedded.dump();
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
}

/**
 * Restores a backup into a new embedded store.
 * @returns the restored store's summary (compare it with the one the backup printed).
 */
export async function restoreStore(file: string, dataDir: string): Promise<TableSummary[]> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw new VettedError('INVALID_REQUEST', `backup file ${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`, { field: 'file' });
  }
  const database = await restoreEmbeddedDatabase(new Blob([bytes]), dataDir);
  try {
    return await summariseStore(database);
  } finally {
    await database.close();
  }
}
