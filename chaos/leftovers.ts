/**
 * At the start of a chaos run: what earlier runs left behind. A work dir (`vetted-chaos-*`) whose owner is gone
 * had its servers stopped by its reaper, unless the reaper died too; whatever is left is stopped and removed here.
 * Kept-logs directories (`vetted-chaos-logs-*`) are pruned to the newest few.
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { log } from './log.ts';
import { isProcessAlive as isAlive } from '../src/util/process-alive.ts';
import { readState, tearDown } from './run-state.ts';

export const WORK_DIR_PREFIX = 'vetted-chaos-';
export const KEPT_LOGS_PREFIX = 'vetted-chaos-logs-';
/** Kept-logs directories beyond this many (newest first) are removed. */
const KEEP_LOG_DIRS = 5;
/** A work dir with no state file (from before state files) is removed once this old. */
const STATELESS_AGE_MS = 3600_000;

export async function removeLeftovers(tmpDir: string): Promise<void> {
  const entries = readdirSync(tmpDir).filter((name) => name.startsWith(WORK_DIR_PREFIX));
  for (const name of entries.filter((n) => !n.startsWith(KEPT_LOGS_PREFIX))) {
    const root = path.join(tmpDir, name);
    const state = readState(root);
    if (state && isAlive(state.ownerPid)) continue;
    if (!state && Date.now() - ageOf(root) < STATELESS_AGE_MS) continue;
    log(`removing the leftovers of an earlier chaos run: ${root}`);
    if (state) await tearDown(state, { keepLogs: false });
    else rmSync(root, { recursive: true, force: true });
  }
  const kept = entries.filter((n) => n.startsWith(KEPT_LOGS_PREFIX)).map((n) => path.join(tmpDir, n)).sort((a, b) => ageOf(b) - ageOf(a));
  for (const old of kept.slice(KEEP_LOG_DIRS)) rmSync(old, { recursive: true, force: true });
}

function ageOf(file: string): number {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}
