/**
 * The chaos run's watchdog, a small detached process: `node --import tsx chaos/reaper.ts <work dir> <run pid>`.
 * It outlives the run on purpose. While the run is alive it only watches; when the run stops everything itself it
 * says so in its state file (`done`) and the reaper leaves. If the run disappears first (kill -9, an OOM kill, a
 * crash past its own handlers), the reaper stops every server and process the state file names, keeps the logs
 * (capped) in the run's one kept-logs directory, and removes the work dir.
 */
import { existsSync } from 'node:fs';
import { isProcessAlive as isAlive } from '../src/util/process-alive.ts';
import { readState, tearDown } from './run-state.ts';

const [root, ownerArg] = process.argv.slice(2);
const owner = Number(ownerArg);
const POLL_MS = 300;

async function watch(): Promise<void> {
  if (!root || !Number.isInteger(owner)) process.exit(2);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    if (!existsSync(root)) return;
    const state = readState(root);
    if (state?.done) return;
    if (!isAlive(owner)) {
      if (state) await tearDown(state, { keepLogs: true, note: `the chaos run (pid ${owner}) disappeared without stopping what it started; the reaper stopped it` });
      return;
    }
  }
}

await watch();
process.exit(0);
