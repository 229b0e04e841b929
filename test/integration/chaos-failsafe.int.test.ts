/**
 * `npm run chaos` fails safe. A small run is started as a child with piped output, in a temp dir of the test's
 * own; once its private servers are up, (1) its output pipe is closed, or (2) it is killed with SIGKILL. Either
 * way: it (or its reaper) stops everything it started, leaves at most one kept-logs directory, under the log
 * cap, and no work dir; the recorded processes are gone. `npm run soak` is the same run without faults: a short
 * one ends with its verdict lines, its growth table and its chart, and one stopped with Ctrl-C leaves nothing
 * running. The bounds below are failure timeouts, not speed checks.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { assertFreeSpace, copyCapped, sizeOf } from '../../chaos/footprint.ts';
import { removeLeftovers } from '../../chaos/leftovers.ts';
import { readState, tearDown, writeState, type RunState } from '../../chaos/run-state.ts';
import { isProcessAlive as isAlive } from '../../src/util/process-alive.ts';

const LOG_CAP_MB = 5;
const dirs: string[] = [];
const children: ChildProcess[] = [];
/** Process groups the tests started (a soak run under `npm run`, in a group of its own). */
const groups: number[] = [];

afterEach(async () => {
  // A run started in a process group of its own (as a terminal starts it) is stopped with its whole group.
  for (const group of groups.splice(0)) signalGroup(group, 'SIGKILL');
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  // Whatever a failed test left: stop it by its state file, then remove the dir.
  for (const dir of dirs.splice(0)) {
    for (const name of existsSync(dir) ? readdirSync(dir) : []) {
      const state = readState(path.join(dir, name));
      if (state) await tearDown(state, { keepLogs: false });
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
/** When the process with this pid started (field 22 of /proc/<pid>/stat), or undefined when there is none. */
function startedAt(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1)?.split(' ')[19];
  } catch {
    return undefined;
  }
}

/** A pid and when its process started: on a busy machine pids wrap within minutes, and a new process may get one. */
function identify(pids: number[]): { pid: number; started: string | undefined }[] {
  return pids.map((pid) => ({ pid, started: startedAt(pid) }));
}

function stillRunning(running: { pid: number; started: string | undefined }): boolean {
  return isAlive(running.pid) && (running.started === undefined || startedAt(running.pid) === running.started);
}

async function assertNothingLeft(tmp: string, state: RunState, pids: { pid: number; started: string | undefined }[]): Promise<void> {
  await until('every process of the run to be gone', () => (pids.every((running) => !stillRunning(running)) ? true : undefined), 60_000);
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
    const pids = identify([state.pids.redis!, postmasterPid(state)]);
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
    const pids = identify([...Object.values(running.pids), postmasterPid(state)]);
    expect(Object.keys(running.pids)).toEqual(expect.arrayContaining(['redis', 'api', 'extract', 'execute', 'all']));
    child.kill('SIGKILL');
    await exited(child);
    await assertNothingLeft(tmp, state, pids);
  }, 360_000);
});

/** The lines every soak (and chaos run) ends with; each must say 0. */
const VERDICT_LINES = [
  'lost', 'executed twice', 'decisions applied twice', 'replies applied twice',
  'notifications delivered twice (slack)', 'notifications delivered twice (email)', 'notifications delivered twice (webhook)',
  'notifications missing', 'events missed by followers', 'reminders or escalations sent twice',
];

/**
 * A soak as a person starts it, `npm run soak -- …`, in a process group of its own as a terminal would (so
 * Ctrl-C reaches npm, the run and every process it started at once), in a temp dir of its own. Thirty seconds
 * at the script's 2 requests/s: seed 3 sends 60 requests of most kinds, none of them throttled (one would spend
 * two minutes in its backoff). Samples every 10 s; the warm-up is the whole load, so no figure is judged for a
 * leak on half a minute of start-up (chaos/leak.ts is tested on made-up samples instead).
 */
function startSoak(): { child: ChildProcess; tmp: string; stdout: () => string; stderr: () => string } {
  const tmp = mkdtempSync(path.join(tmpdir(), 'vetted-soak-test-'));
  dirs.push(tmp);
  chmodSync(tmp, 0o711);
  const args = ['--minutes', '0.5', '--sample-seconds', '10', '--warmup-minutes', '0.5', '--drain-seconds', '90', '--seed', '3', '--tmp-dir', tmp, '--log-cap-mb', String(LOG_CAP_MB)];
  const child = spawn('npm', ['run', '--silent', 'soak', '--', ...args], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  children.push(child);
  if (child.pid !== undefined) groups.push(child.pid);
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return { child, tmp, stdout: () => out, stderr: () => err };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function signalGroup(group: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-group, signal);
  } catch {
    // The group is gone.
  }
}

function postgresPort(state: RunState): number {
  return Number(readFileSync(path.join(state.postgresDataDir!, 'postmaster.pid'), 'utf8').split('\n')[3]);
}

/**
 * Processes of the run found by what they carry, not by the pids it recorded: its temp dir on the command line
 * (npm, the run, its reaper, redis-server, the postmaster) or its database in the environment (every `vetted`
 * process). What the run forgot to record is found too.
 */
function processesOf(tmp: string, databasePort: number): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      const environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
      // The exact variable: a port the run freed may be taken by anything afterwards.
      if (cmdline.includes(tmp) || environ.split('\0').includes(`DATABASE_URL=postgres://postgres@127.0.0.1:${databasePort}/vetted`)) found.push(`${pid}: ${cmdline.slice(0, 160)}`);
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

/** Every process of the run leaves (the reaper, say, at its next look after the work dir is gone); else they are named. */
async function assertNoProcessOf(tmp: string, databasePort: number): Promise<void> {
  await until('every process of the run to leave', () => (processesOf(tmp, databasePort).length === 0 ? true : undefined), 60_000).catch(() => undefined);
  expect(processesOf(tmp, databasePort)).toEqual([]);
}

/** How many runs the soak's private database holds (0 while it cannot be asked). */
async function storedRuns(databasePort: number): Promise<number> {
  const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${databasePort}/vetted` });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return Number((await client.query<{ n: string }>('select count(*)::text as n from runs')).rows[0]?.n ?? 0);
  } catch {
    return 0;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function exitedWithin(child: ChildProcess, what: string, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), timeoutMs)));
  await Promise.race([exited(child), timeout]).finally(() => clearTimeout(timer));
}

async function untilAsync(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

describe('the soak says what it measured and fails safe', () => {
  it('a short soak prints every verdict line at 0, its growth table and leaks, writes its chart, and leaves nothing running', async () => {
    const { child, tmp, stdout, stderr } = startSoak();
    const state = await until('the private servers', () => serversUp(tmp), 120_000);
    const port = postgresPort(state);
    const pids = identify([state.pids.redis!, postmasterPid(state)]);
    await exitedWithin(child, 'the soak to end', 420_000);
    const out = stdout();
    expect(child.exitCode, `stdout:\n${out}\nstderr (end):\n${stderr().slice(-3000)}`).toBe(0);
    for (const name of VERDICT_LINES) expect(out).toMatch(new RegExp(`^${escapeRegExp(name)}: 0$`, 'm'));
    // The growth table: one line per figure, first → last after the warm-up, and why it was or was not judged.
    expect(out).toMatch(/^Vetted soak: 0\.5 min at 2 requests\/s, \d+ samples, warm-up 0\.5 min$/m);
    for (const figure of ['rss api (MB)', 'rss workers (MB)', 'api heap used (MB)', 'redis keys', 'pg tables (MB)', 'pg connections', 'ack latency p99 (ms)']) {
      expect(out).toMatch(new RegExp(`^${escapeRegExp(figure)}\\s+\\S+ → \\S+\\s+\\S`, 'm'));
    }
    expect(out).toMatch(/^leaks: 0$/m);
    const chart = /^chart: (.+)$/m.exec(out)?.[1] ?? '';
    expect(path.dirname(chart)).toBe(tmp);
    const html = readFileSync(chart, 'utf8');
    expect(html).toContain('<title>Vetted soak: 0.5 min at 2 requests/s');
    // Every figure was sampled through the load (every 10 s for 30 s): its chart has a line of several points.
    for (const figure of ['rss api (MB)', 'rss workers (MB)', 'redis keys', 'pg dead tuples', 'pg oldest open transaction (s)']) {
      const points = new RegExp(`aria-label="${escapeRegExp(figure)}"[^]*?points="([^"]*)"`).exec(html)?.[1] ?? '';
      expect(points.split(' ').filter(Boolean).length, figure).toBeGreaterThanOrEqual(3);
    }
    // Latency is bucketed by the minute a request was sent: half a minute is one point.
    expect(html).toContain('aria-label="ack latency p99 (ms)"');
    rmSync(chart);
    await assertNothingLeft(tmp, state, pids);
    await assertNoProcessOf(tmp, port);
  }, 600_000);

  it('Ctrl-C while it sends stops npm, the run, every process and server it started, and removes its work dir', async () => {
    const { child, tmp, stderr } = startSoak();
    // Generous: on a loaded machine the eight processes take minutes to start one after another.
    const state = await until('the API and workers', () => (stderr().includes('api on ') ? serversUp(tmp) : undefined), 420_000);
    const port = postgresPort(state);
    const running = readState(state.root)!;
    const pids = identify([...Object.values(running.pids), postmasterPid(state)]);
    await untilAsync('the soak to store some runs', async () => (await storedRuns(port)) >= 5, 120_000);
    // What a terminal does on Ctrl-C: SIGINT to every process of the foreground group at once.
    signalGroup(child.pid!, 'SIGINT');
    await exitedWithin(child, 'the soak to stop after Ctrl-C', 120_000);
    expect(child.exitCode === 0).toBe(false);
    expect(stderr()).toMatch(/SIGINT: stopping everything this run started/);
    await assertNothingLeft(tmp, state, pids);
    expect(readdirSync(tmp)).toEqual([]);
    await assertNoProcessOf(tmp, port);
  }, 720_000);
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
