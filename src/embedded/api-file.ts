/**
 * Where a running embedded API says it listens. PGlite's files belong to the one process that holds them, so
 * a command that needs the store while the API runs (a backup) asks the API instead; this file, beside the data
 * directory's pid lock, tells it the URL. Written once the API listens, removed when it stops; a file whose
 * process is gone is ignored.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isProcessAlive } from '../util/process-alive.ts';

export interface RunningApi {
  pid: number;
  url: string;
}

export function apiFilePath(dataDir: string): string {
  const dir = path.resolve(dataDir);
  return path.join(path.dirname(dir), `.${path.basename(dir)}.vetted.api.json`);
}

/** Records this process's URL for the store. @returns the function that removes the record. */
export function announceApi(dataDir: string, url: string): () => void {
  const file = apiFilePath(dataDir);
  writeFileSync(file, `${JSON.stringify({ pid: process.pid, url } satisfies RunningApi)}\n`);
  return () => {
    if (readApiFile(file)?.pid === process.pid) rmSync(file, { force: true });
  };
}

/** The embedded API that holds this store, if one runs. */
export function findRunningApi(dataDir: string): RunningApi | undefined {
  const found = readApiFile(apiFilePath(dataDir));
  return found && isProcessAlive(found.pid) ? found : undefined;
}

function readApiFile(file: string): RunningApi | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<RunningApi>;
    return typeof parsed.pid === 'number' && typeof parsed.url === 'string' ? { pid: parsed.pid, url: parsed.url } : undefined;
  } catch {
    return undefined;
  }
}
