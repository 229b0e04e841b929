/**
 * What a chaos run has started, on disk (`<work dir>/state.json`), so that whoever outlives it can stop it: the
 * reaper (reaper.ts) when the run itself is killed outright, and the next run when it finds the work dir of one
 * that died before both. Holds pids, the private PostgreSQL's data directory, and where to keep the logs.
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isProcessAlive as isAlive } from '../src/util/process-alive.ts';
import { copyCapped } from './footprint.ts';

export const STATE_FILE = 'state.json';

export interface RunState {
  ownerPid: number;
  root: string;
  logDir: string;
  /** The one directory this run keeps its logs in, if it keeps them. */
  keepLogsTo: string;
  logCapBytes: number;
  /** Child processes by name (`api`, `build`, `redis`, …): killed if the run cannot stop them itself. */
  pids: Record<string, number>;
  /** The private cluster's data directory (its postmaster.pid names the server). */
  postgresDataDir?: string;
  /** The run stopped everything itself: the reaper has nothing to do. */
  done: boolean;
}

export function writeState(state: RunState): void {
  const file = path.join(state.root, STATE_FILE);
  try {
    writeFileSync(`${file}.tmp`, JSON.stringify(state));
    renameSync(`${file}.tmp`, file);
  } catch {
    // The work dir is gone (the run is over): nothing left to record.
  }
}

export function readState(root: string): RunState | undefined {
  try {
    return JSON.parse(readFileSync(path.join(root, STATE_FILE), 'utf8')) as RunState;
  } catch {
    return undefined;
  }
}


/**
 * Stops what a run left behind and removes its work dir: every recorded process (SIGKILL), the private
 * PostgreSQL (SIGQUIT to its postmaster: an immediate shutdown, then SIGKILL), and, when `keepLogs`, its logs
 * copied (capped) to the run's one kept-logs directory first.
 */
export async function tearDown(state: RunState, options: { keepLogs: boolean; note?: string }): Promise<void> {
  for (const pid of Object.values(state.pids)) if (pid !== state.ownerPid && isAlive(pid)) signal(pid, 'SIGKILL');
  if (state.postgresDataDir) await stopPostmaster(state.postgresDataDir);
  if (options.keepLogs && !existsSync(state.keepLogsTo)) {
    copyCapped([state.logDir, path.join(state.root, 'pg', 'postgres.log'), path.join(state.root, 'redis', 'redis.log')], state.keepLogsTo, state.logCapBytes);
    if (options.note) writeFileSync(path.join(state.keepLogsTo, 'WHY.txt'), `${options.note}\n`);
  }
  rmSync(state.root, { recursive: true, force: true });
}

async function stopPostmaster(dataDir: string): Promise<void> {
  let pid: number;
  try {
    pid = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return;
  }
  if (!Number.isInteger(pid) || pid <= 1 || !isAlive(pid)) return;
  signal(pid, 'SIGQUIT');
  for (let i = 0; i < 50 && isAlive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  if (isAlive(pid)) signal(pid, 'SIGKILL');
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Gone already.
  }
}
