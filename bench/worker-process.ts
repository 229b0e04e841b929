/**
 * The driver's side of a worker process (bench/worker-host.ts): fork it, tell it what to run, wait until
 * its workers listen (or, for kind `api`, its HTTP server), and stop it. Its output goes to stderr, so
 * stdout keeps only the report.
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StageName } from '../src/engine/stages.ts';
import type { WorkKind } from '../workers/start-workers.ts';
import type { CallCounts } from './call-counter.ts';

const HOST_ENTRY = fileURLToPath(new URL('./worker-host.ts', import.meta.url));
/** A process compiles the sources through tsx as it starts: seconds when quiet, a minute or more on a loaded machine. */
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 20_000;

export type WorkerHostSpec =
  | {
      kind: 'vetted';
      /** Overrides merged over the child's process.env before loadConfig. */
      env: Record<string, string>;
      concurrency: Record<StageName, number>;
      poolSize: number;
      /** What to run (startWorkers' kinds); default the five stages only. */
      kinds?: readonly WorkKind[];
    }
  | {
      /** Vetted's HTTP API (startApiServer on 127.0.0.1, a port the OS picks), as `vetted api` runs it. */
      kind: 'api';
      env: Record<string, string>;
      poolSize: number;
    }
  | BareWorkersSpec<'bare-chain'>
  | BareWorkersSpec<'bare-review'>
  | BareWorkersSpec<'bare-staged-review'>
  | {
      /**
       * A peer system (bench/peers, its own package.json): the child imports `module` and calls its
       * `start(options)`; the driver then reaches it through `call` (one request per call).
       */
      kind: 'peer';
      module: string;
      options: Record<string, unknown>;
    };

/** The baselines' workers: plain BullMQ and pg, configured directly. */
export interface BareWorkersSpec<Kind extends string> {
  kind: Kind;
  redisUrl: string;
  databaseUrl: string;
  prefix: string;
  concurrency: Record<StageName, number>;
  poolSize: number;
}

export type WorkerHostMessage =
  /** `url`: where the API listens (kind `api` only). */
  | { type: 'ready'; url?: string }
  | { type: 'failed'; message: string }
  | { type: 'stats'; stats: WorkerStats }
  /** The answer to a `call` (kind `peer`): its value, or why it failed. */
  | { type: 'result'; id: number; value?: unknown; error?: string };

export type WorkerHostCommand =
  | { type: 'start'; spec: WorkerHostSpec }
  | { type: 'stats' }
  | { type: 'stop' }
  | { type: 'call'; id: number; method: string; args: unknown };

/** Cumulative since the worker process started. */
export interface WorkerStats {
  /** process.cpuUsage(), microseconds. */
  cpu: NodeJS.CpuUsage;
  calls: CallCounts;
}

export interface WorkerProcess {
  pid: number | undefined;
  /** The API's base URL, for kind `api`. */
  url: string | undefined;
  stats(): Promise<WorkerStats>;
  /** Kind `peer`: runs `method(args)` in the child and resolves with its answer (IPC, one message each way). */
  call(method: string, args: unknown): Promise<unknown>;
  stop(): Promise<void>;
}

/**
 * @param cpuProfDir when set, the child runs with --cpu-prof and writes its profile there on exit.
 * @param profileFolder the sub-folder of cpuProfDir for this process (default its kind), so phases that run
 *   the same kind (vetted, shadow, sdk, review) keep their profiles apart.
 */
export async function startWorkerProcess(spec: WorkerHostSpec, cpuProfDir?: string, profileFolder: string = spec.kind): Promise<WorkerProcess> {
  // One folder per process, V8's default file names: the loader thread tsx starts writes a profile too, and
  // a fixed --cpu-prof-name would let it overwrite the main thread's. The largest file is the main thread.
  const profiling = cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${path.join(cpuProfDir, profileFolder)}`] : [];
  // process.execArgv carries tsx's loader, so the child runs TypeScript the same way we do.
  const child = fork(HOST_ENTRY, [], { execArgv: [...process.execArgv, ...profiling], stdio: ['ignore', 2, 2, 'ipc'] });
  let url: string | undefined;
  try {
    url = await waitForReady(child, spec);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return { pid: child.pid, url, stats: () => askStats(child), call: caller(child), stop: () => stopChild(child) };
}

/** One listener for every answer, matched by id, so thousands of calls in flight cost one handler. */
function caller(child: ChildProcess): (method: string, args: unknown) => Promise<unknown> {
  let nextId = 0;
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  child.on('message', (message: WorkerHostMessage) => {
    if (message.type !== 'result') return;
    const waiter = waiting.get(message.id);
    if (!waiter) return;
    waiting.delete(message.id);
    if (message.error !== undefined) waiter.reject(new Error(message.error));
    else waiter.resolve(message.value);
  });
  child.on('exit', (code) => {
    for (const waiter of waiting.values()) waiter.reject(new Error(`worker process exited (code ${code}) with a call outstanding`));
    waiting.clear();
  });
  return (method, args) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      if (!send(child, { type: 'call', id, method, args })) {
        waiting.delete(id);
        reject(new Error('worker process is gone'));
      }
    });
}

function waitForReady(child: ChildProcess, spec: WorkerHostSpec): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${spec.kind} process did not start within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
    const done = (error?: Error, url?: string) => {
      clearTimeout(timer);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve(url);
    };
    const onExit = (code: number | null) => done(new Error(`${spec.kind} process exited (code ${code}) before it was ready`));
    child.on('exit', onExit);
    child.once('message', (message: WorkerHostMessage) => {
      if (message.type === 'ready') done(undefined, message.url);
      else done(new Error(`${spec.kind} process: ${message.type === 'failed' ? message.message : `unexpected ${message.type}`}`));
    });
    send(child, { type: 'start', spec });
  });
}

function askStats(child: ChildProcess): Promise<WorkerStats> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: WorkerHostMessage) => {
      if (message.type !== 'stats') return;
      child.off('message', onMessage);
      resolve(message.stats);
    };
    child.on('message', onMessage);
    if (!send(child, { type: 'stats' })) {
      child.off('message', onMessage);
      reject(new Error('worker process is gone'));
    }
  });
}

function send(child: ChildProcess, command: WorkerHostCommand): boolean {
  return child.connected && child.send(command);
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  send(child, { type: 'stop' });
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}
