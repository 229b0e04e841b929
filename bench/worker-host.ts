/**
 * Child-process entry: runs one set of workers (Vetted's, the bare chain's, the bare review's execute
 * worker) or Vetted's HTTP API until told to stop.
 *
 * Workers live in their own process, apart from the driver that submits requests and waits for them, as
 * in a deployment (API or producer here, `vetted worker` there). The driver's bookkeeping then never
 * competes with the workers for the same event loop, and both systems get the same arrangement. The API
 * gets a process of its own for the same reason, as `vetted api` would run.
 */
import { startApiServer } from '../api/server.ts';
import { loadConfig } from '../src/config.ts';
import { STAGE_NAMES } from '../src/engine/stages.ts';
import { createSystem } from '../src/system.ts';
import { startWorkers } from '../workers/start-workers.ts';
import { startBareChainWorkers } from './bare-chain.ts';
import { startBareReviewWorker } from './review-bare.ts';
import { startBareStagedWorkers } from './review-bare-staged.ts';
import { callCounts, installCallCounter } from './call-counter.ts';
import type { WorkerHostCommand, WorkerHostMessage, WorkerHostSpec } from './worker-process.ts';

// Before any connection exists, so every query and command is counted.
installCallCounter();

interface Running {
  /** Where the API listens (kind `api`). */
  url?: string;
  /** Kind `peer`: one request's work, asked for by the driver. */
  call?(method: string, args: unknown): Promise<unknown>;
  close(): Promise<void>;
}

/** What a peer module (bench/peers) exports; it is loaded by path so the root typecheck never needs its packages. */
interface PeerModule {
  start(options: Record<string, unknown>): Promise<Running>;
}

let running: Running | undefined;

async function start(spec: WorkerHostSpec): Promise<Running> {
  if (spec.kind === 'bare-chain') return startBareChainWorkers(spec);
  if (spec.kind === 'bare-review') return startBareReviewWorker(spec);
  if (spec.kind === 'bare-staged-review') return startBareStagedWorkers(spec);
  if (spec.kind === 'peer') return ((await import(spec.module)) as PeerModule).start(spec.options);
  const system = await createSystem(loadConfig({ ...process.env, ...spec.env }), { migrate: false, poolSize: spec.poolSize });
  if (spec.kind === 'api') {
    const api = await startApiServer(system, { host: '127.0.0.1', port: 0 }).catch(async (error: unknown) => {
      await system.close();
      throw error;
    });
    return {
      url: api.url,
      async close() {
        await api.close();
        await system.close();
      },
    };
  }
  const workers = startWorkers(system, { kinds: spec.kinds ?? STAGE_NAMES, concurrency: spec.concurrency });
  await Promise.all(workers.workers.map((worker) => worker.waitUntilReady()));
  return {
    async close() {
      await workers.close();
      await system.close();
    },
  };
}

async function stop(code: number): Promise<never> {
  await running?.close().catch(() => undefined);
  // process.exit (not a natural drain) also makes --cpu-prof write its profile.
  process.exit(code);
}

function reply(message: WorkerHostMessage): void {
  process.send?.(message);
}

// Ctrl-C reaches the whole process group; the parent decides when workers stop, so it can clean up in order.
process.on('SIGINT', () => undefined);
// The parent died or closed the channel: nobody will ever say stop.
process.on('disconnect', () => void stop(0));
process.on('message', (message: WorkerHostCommand) => {
  if (message.type === 'stop') {
    void stop(0);
    return;
  }
  if (message.type === 'stats') {
    reply({ type: 'stats', stats: { cpu: process.cpuUsage(), calls: callCounts() } });
    return;
  }
  if (message.type === 'call') {
    const { id } = message;
    const call = running?.call;
    if (!call) {
      reply({ type: 'result', id, error: 'this process takes no calls' });
      return;
    }
    call(message.method, message.args).then(
      (value) => reply({ type: 'result', id, value }),
      (error: unknown) => reply({ type: 'result', id, error: error instanceof Error ? error.message : String(error) }),
    );
    return;
  }
  start(message.spec).then(
    (started) => {
      running = started;
      reply({ type: 'ready', ...(started.url ? { url: started.url } : {}) });
    },
    (error: unknown) => {
      reply({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
      void stop(1);
    },
  );
});
