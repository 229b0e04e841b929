/**
 * `npm run chaos` fails safe. A small run is started as a child with piped output, in a temp dir of the test's
 * own; once its private servers are up, (1) its output pipe is closed, or (2) it is killed with SIGKILL. Either
 * way: it (or its reaper) stops everything it started, leaves at most one kept-logs directory, under the log
 * cap, and no work dir; the recorded processes are gone. The bounds below are failure timeouts, not speed checks.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { assertFreeSpace, copyCapped, sizeOf } from '../../chaos/footprint.ts';
import { removeLeftovers } from '../../chaos/leftovers.ts';
import { readState, writeState, type RunState } from '../../chaos/run-state.ts';
import { isProcessAlive as isAlive } from '../../src/util/process-alive.ts';

const LOG_CAP_MB = 5;
const dirs: string[] = [];
const children: ChildProcess[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  // Whatever a failed test left: stop it by its state file, then remove the dir.
  for (const dir of dirs.splice(0)) {
    for (const name of existsSync(dir) ? readdirSync(dir) : []) {
      const state = readState(path.join(dir, name));
      if (state) for (const pid of Object.values(state.pids)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A small chaos run (20 requests, one fault window) in a temp dir of its own. */
function startChaos(): { child: ChildProcess; tmp: string; stderr: () => string } {
  const tmp = mkdtempSync(path.join(tmpdir(), 'vetted-chaos-test-'));
  dirs.push(tmp);
  // mkdtemp makes it 0700; the private PostgreSQL runs as the postgres OS user and must reach its data dir inside.
  chmodSync(tmp, 0o711);
  const child = spawn(process.execPath, ['--import', 'tsx', 'chaos/main.ts', '--requests', '20', '--rate', '4', '--drain-seconds', '20', '--seed', '7', '--tmp-dir', tmp, '--log-cap-mb', String(LOG_CAP_MB)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let err = '';
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return { child, tmp, stderr: () => err };
}

async function until<T>(what: string, check: () => T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The run's state once its private Redis and PostgreSQL are up (their pid and data dir recorded). */
function serversUp(tmp: string): RunState | undefined {
  for (const name of readdirSync(tmp)) {
    const state = readState(path.join(tmp, name));
    if (state?.pids.redis && state.postgresDataDir && existsSync(path.join(state.postgresDataDir, 'postmaster.pid'))) return state;
  }
  return undefined;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

function postmasterPid(state: RunState): number {
  return Number(readFileSync(path.join(state.postgresDataDir!, 'postmaster.pid'), 'utf8').split('\n')[0]);
}

/** Nothing of the run remains but at most one kept-logs directory under the cap. */
async function assertNothingLeft(tmp: string, state: RunState, pids: number[]): Promise<void> {
  await until('every process of the run to be gone', () => (pids.every((pid) => !isAlive(pid)) ? true : undefined), 60_000);
  await until('the work dir to be removed', () => (existsSync(state.root) ? undefined : true), 60_000);
  const left = readdirSync(tmp);
  expect(left.filter((name) => !name.startsWith('vetted-chaos-logs-'))).toEqual([]);
  expect(left.length).toBeLessThanOrEqual(1);
  for (const kept of left) expect(sizeOf(path.join(tmp, kept))).toBeLessThanOrEqual(LOG_CAP_MB * 1024 * 1024);
}

describe('the chaos run fails safe', () => {
  it('its output pipe closing ends it cleanly: servers stopped, one kept-logs directory under the cap', async () => {
    const { child, tmp } = startChaos();
    const state = await until('the private servers', () => serversUp(tmp), 120_000);
    const pids = [state.pids.redis!, postmasterPid(state)];
    child.stdout?.destroy();
    child.stderr?.destroy();
    await Promise.race([exited(child), until('the run to exit after its pipe closed', () => undefined, 120_000)]);
    expect(child.exitCode).toBe(1);
    await assertNothingLeft(tmp, state, pids);
  }, 360_000);

  it('killed with SIGKILL, its reaper stops everything it had started', async () => {
    const { child, tmp, stderr } = startChaos();
    const state = await until('the API and workers', () => (stderr().includes('api on ') ? serversUp(tmp) : undefined), 180_000);
    const running = readState(state.root)!;
    const pids = [...Object.values(running.pids), postmasterPid(state)];
    expect(Object.keys(running.pids)).toEqual(expect.arrayContaining(['redis', 'api', 'extract', 'execute', 'all']));
    child.kill('SIGKILL');
    await exited(child);
    await assertNothingLeft(tmp, state, pids);
  }, 360_000);
});

describe('what a chaos run leaves is bounded and cleaned up', () => {
  it("the next run stops and removes an earlier run's leftovers whose owner is gone, and keeps a live run's", async () => {
    const tmp = mkdtempSync(path.join(tmpdir(), 'vetted-chaos-test-'));
    dirs.push(tmp);
    const orphan = spawn('sleep', ['300'], { stdio: 'ignore' });
    children.push(orphan);
    const dead = spawn('true');
    await exited(dead);
    const leftover = path.join(tmp, 'vetted-chaos-old');
    mkdirSync(path.join(leftover, 'logs'), { recursive: true });
    writeState({ ownerPid: dead.pid!, root: leftover, logDir: path.join(leftover, 'logs'), keepLogsTo: path.join(tmp, 'vetted-chaos-logs-old'), logCapBytes: 1024, pids: { api: orphan.pid! }, done: false });
    const live = path.join(tmp, 'vetted-chaos-live');
    mkdirSync(live);
    writeState({ ownerPid: process.pid, root: live, logDir: live, keepLogsTo: path.join(tmp, 'x'), logCapBytes: 1024, pids: {}, done: false });
    await removeLeftovers(tmp);
    await exited(orphan);
    expect(existsSync(leftover)).toBe(false);
    expect(existsSync(live)).toBe(true);
  });

  it('keeps logs up to the cap and lists the rest; refuses to start without the room it needs', () => {
    const tmp = mkdtempSync(path.join(tmpdir(), 'vetted-chaos-test-'));
    dirs.push(tmp);
    const logs = path.join(tmp, 'logs');
    mkdirSync(logs);
    writeFileSync(path.join(logs, 'small.log'), 'x'.repeat(100));
    writeFileSync(path.join(logs, 'big.log'), 'y'.repeat(5000));
    const kept = path.join(tmp, 'kept');
    expect(copyCapped([logs], kept, 1000)).toBe(100);
    expect(readdirSync(kept).sort()).toEqual(['LEFT-OUT.txt', 'small.log']);
    expect(readFileSync(path.join(kept, 'LEFT-OUT.txt'), 'utf8')).toContain('big.log (5000 bytes)');
    expect(() => assertFreeSpace(tmp, Number.MAX_SAFE_INTEGER)).toThrow(/MB free; a chaos run needs about .* --tmp-dir .* --log-cap-mb/);
  });
});
