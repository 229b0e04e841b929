/**
 * Phase `memory`: what a run parked for a human costs Redis. The target is zero: a parked run should live
 * in PostgreSQL only.
 *
 * Runs with policy `require_human` go through extract → validate and park. The keys under this phase's own
 * prefix are counted and sized (SCAN + MEMORY USAGE) once the stage queues are idle, before and after
 * parking N runs, and the difference is split three ways:
 * - job keys (any key that is not one of BullMQ's per-queue names: a job's hash, lock, logs);
 * - queue structures (wait/active/delayed/completed/failed sets, meta, id counters);
 * - event streams: BullMQ's per-queue event history, trimmed to about 10,000 entries per queue. It grows
 *   with jobs processed, not with runs waiting, so it is shown but not counted against the target.
 * Growth is also listed per queue, which names whatever holds parked runs (a delayed job per review, say).
 */
import type { Redis } from 'ioredis';
import { createRedisConnection } from '../src/queue/queues.ts';
import { submitRun } from '../src/intake/submit-run.ts';
import { createSystem, type QueuedSystem as System } from '../src/system.ts';
import type { BenchContext, Phase } from './phase.ts';
import { keyUsage } from './redis-keys.ts';
import type { TargetVerdict } from './report.ts';
import { benchRequest, registerBenchModels } from './workload.ts';
import { startWorkerProcess } from './worker-process.ts';

/** Runs parked before the first snapshot, so the queues' own keys already exist in both. */
const SETTLE_RUNS = 20;
const SUBMIT_IN_FLIGHT = 50;
const POLL_MS = 200;

type Category = 'job keys' | 'queue structures' | 'event streams';
const CATEGORIES: readonly Category[] = ['job keys', 'queue structures', 'event streams'];
/** Bytes and key counts per queue and category. */
type Snapshot = Map<string, { keys: number; bytes: number }>;

/** BullMQ's per-queue keys (`<prefix>:<queue>:<name>[:…]`); any other name is a job's (hash, lock, logs). */
const QUEUE_KEY_NAMES = new Set([
  'wait', 'active', 'paused', 'delayed', 'prioritized', 'completed', 'failed', 'stalled', 'stalled-check',
  'meta', 'id', 'marker', 'pc', 'limiter', 'waiting-children', 'repeat', 'de', 'metrics',
]);

export const memoryPhase: Phase = {
  name: 'memory',
  summary: 'Redis bytes per run parked awaiting a human (policy require_human); target 0',
  async run(context) {
    const { environment } = context;
    const prefix = environment.prefixFor('memory');
    const system = await createSystem(environment.vettedConfig(prefix), { poolSize: environment.poolSize });
    const redis = createRedisConnection(environment.redisUrl);
    try {
      await registerBenchModels(system);
      const workers = await startWorkerProcess(
        { kind: 'vetted', env: environment.vettedEnv(prefix), concurrency: { ...environment.concurrency }, poolSize: environment.poolSize },
        context.options.cpuProfDir,
      );
      try {
        await parkRuns(context, system, 'memory-settle', SETTLE_RUNS);
        const before = await snapshot(redis, prefix);
        const usedBefore = await usedMemory(redis);
        await parkRuns(context, system, 'memory', context.options.parked);
        const after = await snapshot(redis, prefix);
        const usedAfter = await usedMemory(redis);
        return report(context.options.parked, prefix, before, after, usedAfter - usedBefore);
      } finally {
        await workers.stop();
      }
    } finally {
      redis.disconnect();
      await system.close();
    }
  },
};

/** Submits `count` require_human runs, then waits until all are parked and every queue is idle. */
async function parkRuns(context: BenchContext, system: System, tag: string, count: number): Promise<void> {
  const tenantId = `bench-${tag}`;
  let next = 0;
  const lane = async () => {
    while (next < count && !context.signal.aborted) {
      const index = next++;
      await submitRun(system, { tenantId, request: benchRequest(index, 'require_human'), actor: 'bench' });
    }
  };
  await Promise.all(Array.from({ length: Math.min(SUBMIT_IN_FLIGHT, count) }, lane));

  // Nothing completes at the end of the chain here, so this is the one place the bench polls PostgreSQL.
  let parked = 0;
  let lastChange = performance.now();
  while (parked < count || !(await queuesIdle(system))) {
    if (context.signal.aborted) throw new Error('interrupted');
    if (performance.now() - lastChange > context.options.stallSeconds * 1000) {
      throw new Error(`memory ${tag}: ${parked}/${count} runs parked after waiting ${context.options.stallSeconds} s with no change`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const { rows } = await system.database.pool.query<{ n: number }>(
      "select count(*)::int as n from runs where tenant_id = $1 and status = 'awaiting_human'",
      [tenantId],
    );
    const now = rows[0]?.n ?? 0;
    if (now !== parked) lastChange = performance.now();
    parked = now;
    if (!context.options.quiet) context.note(`  memory ${tag}: ${parked}/${count} parked`);
  }
}

async function queuesIdle(system: System): Promise<boolean> {
  for (const queue of Object.values(system.queues.stages)) {
    const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'waiting-children');
    if (Object.values(counts).some((n) => n > 0)) return false;
  }
  return true;
}

async function snapshot(redis: Redis, prefix: string): Promise<Snapshot> {
  const result: Snapshot = new Map();
  for (const { key, bytes } of await keyUsage(redis, `${prefix}:*`)) {
    const [queue = '', name = ''] = key.slice(prefix.length + 1).split(':');
    const slot = `${queue}\u0000${categorise(name)}`;
    const entry = result.get(slot) ?? { keys: 0, bytes: 0 };
    entry.keys += 1;
    entry.bytes += bytes;
    result.set(slot, entry);
  }
  return result;
}

function categorise(name: string): Category {
  if (name === 'events') return 'event streams';
  return QUEUE_KEY_NAMES.has(name) ? 'queue structures' : 'job keys';
}

function total(snapshot: Snapshot, category: Category): { keys: number; bytes: number } {
  let keys = 0;
  let bytes = 0;
  for (const [slot, entry] of snapshot) {
    if (!slot.endsWith(`\u0000${category}`)) continue;
    keys += entry.keys;
    bytes += entry.bytes;
  }
  return { keys, bytes };
}

async function usedMemory(redis: Redis): Promise<number> {
  const info = await redis.info('memory');
  return Number(/used_memory:(\d+)/.exec(info)?.[1] ?? Number.NaN);
}

function report(parked: number, prefix: string, before: Snapshot, after: Snapshot, usedDelta: number) {
  const lines = [`${parked} runs parked (policy require_human), all awaiting_human in PostgreSQL; keys under ${prefix}:`];
  let held = 0;
  for (const category of CATEGORIES) {
    const b = total(before, category);
    const a = total(after, category);
    const delta = a.bytes - b.bytes;
    if (category !== 'event streams') held += delta;
    lines.push(
      `  ${category.padEnd(17)} ${String(b.keys).padStart(5)} → ${String(a.keys).padEnd(5)} keys  ${String(b.bytes).padStart(9)} → ${String(a.bytes).padEnd(9)} bytes  Δ ${delta} (${(delta / parked).toFixed(1)} per parked run)`,
    );
  }
  lines.push(...growthByQueue(before, after, parked));
  lines.push(`  used_memory (whole server, shared with other clients, noisy): Δ ${usedDelta} bytes (${(usedDelta / parked).toFixed(1)} per parked run)`);
  const perRun = held / parked;
  // "Zero" allows under one byte per run: an id counter's encoding can change size without anything being held.
  const verdict: TargetVerdict = { name: 'Redis bytes per parked run (job keys + queue structures)', value: perRun, shown: perRun.toFixed(1), bound: '0 (< 1)', pass: perRun < 1 };
  return { section: { title: 'Redis memory per parked run', lines }, verdicts: [verdict] };
}

/** Where it grew, queue by queue (event streams left out: they grow with any work). */
function growthByQueue(before: Snapshot, after: Snapshot, parked: number): string[] {
  const lines: string[] = [];
  for (const [slot, entry] of after) {
    const [queue, category] = slot.split('\u0000') as [string, Category];
    if (category === 'event streams') continue;
    const was = before.get(slot) ?? { keys: 0, bytes: 0 };
    const delta = entry.bytes - was.bytes;
    if (Math.abs(delta) < parked) continue;
    lines.push(`    of which ${queue} ${category}: ${was.keys} → ${entry.keys} keys, Δ ${delta} bytes (${(delta / parked).toFixed(1)} per parked run)`);
  }
  return lines;
}
