/**
 * The Vetted processes under test, started the way an operator would: `vetted api` and several
 * `vetted worker --stages <subset>` (one per stage, so each stage has a process to kill, plus one with every
 * queue, including expiry, webhooks and the reconciler). Each child's output goes to its own log file.
 *
 * The fleet plays the supervisor a deployment would have: a process we kill -9 is started again after a short
 * pause, and so is one that exits on its own; the latter is recorded as a crash, which is a finding.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CappedFile } from './footprint.ts';
import { elapsed, errorMessage, log as chaosLog, sleep, waitUntil } from './log.ts';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const VETTED_BIN = path.join(REPO_ROOT, 'bin', 'vetted.mjs');
/**
 * tsx compiles on start, and two cores share a dozen processes: give a start-up room. On this shared machine at
 * load 20–26 (other test suites beside the run) a worker restarted after a kill took over a minute to be ready.
 */
export const READY_TIMEOUT_MS = 180_000;
const MAX_START_ATTEMPTS = 10;
const KILL_WAIT_READY_MS = 30_000;

export type Role = 'api' | 'mcp' | 'extract' | 'assemble' | 'build' | 'validate' | 'execute' | 'all';
export const STAGE_ROLES = ['extract', 'assemble', 'build', 'validate', 'execute'] as const satisfies readonly Role[];
/** The processes startAll starts, one after another: the API, the MCP server, one worker per stage and one with every queue. */
export const FLEET_SIZE = 2 + STAGE_ROLES.length + 1;

export interface Crash {
  role: Role;
  pid: number | undefined;
  code: number | null;
  signal: NodeJS.Signals | null;
  at: string;
  logFile: string;
}

interface Member {
  role: Role;
  child: ChildProcess;
  logFile: string;
  /** It said it was ready; an exit before that is a failed start (say, PostgreSQL was down), not a crash. */
  ready: boolean;
  /** Set when we kill it (a fault or the shutdown), so its exit is not counted as a crash. */
  expectedExit: boolean;
  generation: number;
}

export interface FleetOptions {
  env: Record<string, string>;
  /** Merged over `env` for the API process only. */
  apiEnv?: Record<string, string>;
  apiPort: number;
  /** `vetted mcp --http` listens here: the MCP channel, a process the faults kill mid-call. */
  mcpPort: number;
  logDir: string;
  /** Pause before a killed process is started again, like a supervisor's restart delay. */
  respawnDelayMs: number;
  /** Each process's log stops growing past this many bytes. */
  logCapBytes: number;
  /** Told of every process started (the run records it for its reaper). */
  onSpawn?: (role: Role, pid: number | undefined) => void;
}

export class Fleet {
  private readonly members = new Map<Role, Member>();
  private readonly logs = new Map<string, CappedFile>();
  private stopping = false;
  readonly crashes: Crash[] = [];
  /** Processes that exited before they were ready (they fail fast while a service they need is down). */
  failedStarts = 0;
  readonly kills: { role: Role; pid: number | undefined; at: string }[] = [];
  private respawning = new Set<Promise<void>>();

  constructor(private readonly options: FleetOptions) {}

  get apiUrl(): string {
    return `http://127.0.0.1:${this.options.apiPort}`;
  }

  get mcpUrl(): string {
    return `http://127.0.0.1:${this.options.mcpPort}/mcp`;
  }

  /** Starts the API and every worker process, and waits until each says it is ready. */
  async startAll(): Promise<void> {
    await this.start('api');
    await this.start('mcp');
    // Started one after another: on two cores a dozen tsx compilations at once take longer than in turn.
    for (const role of [...STAGE_ROLES, 'all'] as const) await this.start(role);
  }

  /** Every role's current pid (a restarted process has a new one). */
  pids(): Record<string, number | undefined> {
    return Object.fromEntries([...this.members].map(([role, m]) => [role, m.child.pid]));
  }

  pidOf(role: Role): number | undefined {
    return this.members.get(role)?.child.pid;
  }

  /**
   * kill -9 the process playing `role`, then start it again after the respawn delay (in the background).
   * A process still starting (a respawn after the previous fault) is given up to 30 s to be ready first:
   * killing it before it took any work would test nothing.
   */
  async kill9(role: Role): Promise<number | undefined> {
    await this.waitReady(role);
    const member = this.members.get(role);
    if (!member || !isServing(member)) return undefined;
    member.expectedExit = true;
    const pid = member.child.pid;
    member.child.kill('SIGKILL');
    this.kills.push({ role, pid, at: elapsed() });
    this.respawnLater(role, member.generation);
    return pid;
  }

  /**
   * Whether the process playing `role` serves within `timeoutMs`: one killed a moment ago is still in its place
   * until the respawn delay has passed, and does not count.
   */
  async waitReady(role: Role, timeoutMs = KILL_WAIT_READY_MS): Promise<boolean> {
    return waitUntil(() => isServing(this.members.get(role)), timeoutMs, 200);
  }

  /** Waits for respawns still pending (so a kill late in the load is back before the drain). */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.respawning]);
  }

  /** SIGTERM everyone (workers drain their active jobs), SIGKILL whoever is still there after `graceMs`. */
  async stopAll(graceMs = 10_000): Promise<void> {
    this.stopping = true;
    const members = [...this.members.values()];
    for (const m of members) m.expectedExit = true;
    const exits = members.map((m) => exited(m.child));
    for (const m of members) if (isAlive(m.child)) m.child.kill('SIGTERM');
    await Promise.race([Promise.all(exits), sleep(graceMs)]);
    for (const m of members) if (isAlive(m.child)) m.child.kill('SIGKILL');
    await Promise.race([Promise.all(exits), sleep(2000)]);
  }

  /** Starts `role` again after the delay; a start that fails (a service is down) is tried again, a bounded number of times. */
  private respawnLater(role: Role, generation: number): void {
    const task = (async () => {
      for (let attempt = 1; attempt <= MAX_START_ATTEMPTS; attempt++) {
        await sleep(this.options.respawnDelayMs * attempt);
        // The shutdown began, or a newer process already plays this role.
        if (this.stopping || this.members.get(role)?.generation !== generation + attempt - 1) return;
        try {
          await this.start(role);
          return;
        } catch (error) {
          if (!this.stopping) chaosLog(`restart of ${role} failed (try ${attempt} of ${MAX_START_ATTEMPTS}): ${errorMessage(error)}`);
        }
      }
    })();
    this.respawning.add(task);
    void task.finally(() => this.respawning.delete(task));
  }

  private async start(role: Role): Promise<void> {
    const args = role === 'api' ? ['api', '--port', String(this.options.apiPort)]
      : role === 'mcp' ? ['mcp', '--http', '--port', String(this.options.mcpPort)]
        : ['worker', ...(role === 'all' ? [] : ['--stages', role])];
    const logFile = path.join(this.options.logDir, `${role}.log`);
    const log = this.logs.get(logFile) ?? new CappedFile(logFile, this.options.logCapBytes);
    this.logs.set(logFile, log);
    const child = spawn(process.execPath, [VETTED_BIN, ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...this.options.env, ...(role === 'api' ? this.options.apiEnv : {}) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const generation = (this.members.get(role)?.generation ?? 0) + 1;
    const member: Member = { role, child, logFile, ready: false, expectedExit: false, generation };
    this.members.set(role, member);
    this.options.onSpawn?.(role, child.pid);
    log.write(`\n==== chaos: started ${role} pid ${child.pid} at ${new Date().toISOString()} (${elapsed()})\n`);
    let ready = false;
    let tail = '';
    const markReady = (chunk: Buffer) => {
      // `vetted worker` logs "workers started" once its queues are open; the API is polled instead.
      tail = (tail + chunk.toString()).slice(-8192);
      if (!ready && tail.includes('"msg":"workers started"')) ready = true;
    };
    child.stdout?.on('data', markReady);
    child.stdout?.on('data', (chunk: Buffer) => log.write(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => log.write(chunk.toString()));
    child.once('exit', (code, signal) => this.onExit(member, code, signal));

    const isReady = role === 'api' ? () => this.apiAnswers() : role === 'mcp' ? () => this.mcpAnswers() : () => ready;
    const ok = await waitUntil(async () => !isAlive(child) || (await isReady()), READY_TIMEOUT_MS, 200);
    if (!ok || !isAlive(child)) {
      member.expectedExit = true;
      if (isAlive(child)) child.kill('SIGKILL');
      throw new Error(`${role} did not become ready (pid ${child.pid}); see ${logFile}`);
    }
    member.ready = true;
  }

  private async apiAnswers(): Promise<boolean> {
    try {
      const response = await fetch(`${this.apiUrl}/api/healthz`, { signal: AbortSignal.timeout(1000) });
      return response.ok;
    } catch {
      return false;
    }
  }

  /** Any HTTP answer at /mcp (a GET is refused: the server is stateless) means it listens. */
  private async mcpAnswers(): Promise<boolean> {
    try {
      await fetch(this.mcpUrl, { signal: AbortSignal.timeout(1000) });
      return true;
    } catch {
      return false;
    }
  }

  private onExit(member: Member, code: number | null, signal: NodeJS.Signals | null): void {
    if (!member.ready) {
      // start() sees it and throws; respawnLater tries again.
      this.failedStarts += 1;
      return;
    }
    if (member.expectedExit || this.stopping) return;
    // Nobody asked it to go: that is a crash of the product under these faults.
    this.crashes.push({ role: member.role, pid: member.child.pid, code, signal, at: elapsed(), logFile: member.logFile });
    chaosLog(`CRASH: ${member.role} (pid ${member.child.pid}) exited on its own (code ${code}, signal ${signal}); see ${member.logFile}; restarting it`);
    if (this.members.get(member.role)?.generation === member.generation) this.respawnLater(member.role, member.generation);
  }
}

/** What tells whether a fleet member plays its role right now. */
export interface ServingState {
  /** It said it was ready. */
  ready: boolean;
  /** It is being killed or stopped: its exit (and, after a kill, its restart) is on the way. */
  expectedExit: boolean;
  child: Pick<ChildProcess, 'exitCode' | 'signalCode'>;
}

/** Ready, not on its way out, and still running. */
export function isServing(member: ServingState | undefined): boolean {
  return member !== undefined && member.ready && !member.expectedExit && isAlive(member.child);
}

function isAlive(child: Pick<ChildProcess, 'exitCode' | 'signalCode'>): boolean {
  return child.exitCode === null && child.signalCode === null;
}

function exited(child: ChildProcess): Promise<void> {
  if (!isAlive(child)) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}
