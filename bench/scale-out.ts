/**
 * Phase `scale`: how Vetted's pipeline throughput grows from one worker process to two on this machine
 * (each process with the full per-stage concurrency, as a second `vetted worker` would add), and, from what
 * one request costs, the model of a larger fleet with one PostgreSQL primary (scale-model.ts).
 *
 * Both runs use the same driver, database, loads (throughput only: `--warmup`, then `--requests` at
 * `--in-flight`) and completion detection as phase `vetted`. On a 2-core machine shared with other work, two
 * processes cannot get twice the CPU; the factor says how much of the second process's work the machine
 * could still absorb, and the cost columns (which don't move with load) feed the model.
 */
import { createRedisConnection } from '../src/queue/queues.ts';
import type { BenchContext, Phase } from './phase.ts';
import { fixed, loadSummary, type LoadRow, type TargetVerdict } from './report.ts';
import { DEFAULT_ASSUMPTIONS, fleetEstimate, parseRedisCpuMs, redisShare, scalingFactor, type FleetAssumptions, type PerRequestCosts, type RedisShare } from './scale-model.ts';
import { measureVetted } from './vetted-pipeline.ts';

export const scalePhase: Phase = {
  name: 'scale',
  summary: "Vetted's pipeline with 1 then 2 worker processes (throughput), and the model of a 16-core fleet on one PostgreSQL",
  optIn: true,
  async run(context) {
    const plan = { latencyRequests: 0 };
    const idle = await idleRedisCpuRate(context);
    const before = { cpu: await redisCpuMs(context), at: performance.now() };
    const one = await measureVetted(context, { system: 'vetted, 1 worker process', part: 'scale-1', plan });
    const requests = context.options.warmup + context.options.requests;
    const redis = redisShare((await redisCpuMs(context)) - before.cpu, idle * (performance.now() - before.at), requests);
    const two = await measureVetted(context, { system: 'vetted, 2 worker processes', part: 'scale-2', processes: 2, plan });
    const [rowOne, rowTwo] = [one.loads[0], two.loads[0]];
    if (!rowOne || !rowTwo) throw new Error('scale: a throughput run is missing');
    const factor = scalingFactor(loadSummary(rowOne).rate, loadSummary(rowTwo).rate);
    const verdicts: TargetVerdict[] = [{ name: 'throughput, 2 worker processes / 1 (this machine)', value: factor, shown: `${fixed(factor, 2)} ×`, bound: 'none', pass: undefined }];
    return { loads: [rowOne, rowTwo], verdicts, section: { title: 'Scaling out (phase scale)', lines: modelLines(rowOne, factor, redis) } };
  },
};

/** How long the idle window is that measures others' Redis CPU before the run. */
const IDLE_WINDOW_MS = 3000;

/** Redis CPU ms per ms of wall time while this bench sends nothing: the other clients' share. */
async function idleRedisCpuRate(context: BenchContext): Promise<number> {
  const start = await redisCpuMs(context);
  const startedAt = performance.now();
  await new Promise((resolve) => setTimeout(resolve, IDLE_WINDOW_MS));
  return ((await redisCpuMs(context)) - start) / (performance.now() - startedAt);
}

/** Redis's own CPU (user + system) in ms, server-wide: every client of this Redis counts, so per request it is an upper bound. */
async function redisCpuMs(context: BenchContext): Promise<number> {
  const redis = createRedisConnection(context.environment.redisUrl);
  try {
    return parseRedisCpuMs(await redis.info('cpu'));
  } catch {
    return Number.NaN;
  } finally {
    redis.disconnect();
  }
}


function modelLines(row: LoadRow, factor: number, redis: RedisShare | undefined): string[] {
  const redisCpuMs = redis?.estimateMs;
  const c = row.costs;
  const walBytes = c?.wal?.own?.bytes ?? c?.wal?.serverBytes;
  if (!c || c.pgCpuMs === undefined || walBytes === undefined) {
    return [`2 processes / 1: ${fixed(factor, 2)} ×. No model: PostgreSQL CPU or WAL per request could not be read (server not on this machine?).`];
  }
  const costs: PerRequestCosts = { workerCpuMs: c.workerCpuMs, driverCpuMs: c.driverCpuMs, pgCpuMs: c.pgCpuMs, walBytes, pgQueries: c.pgQueries, ...(redisCpuMs !== undefined ? { redisCpuMs } : {}) };
  const assumptions: FleetAssumptions = { ...DEFAULT_ASSUMPTIONS };
  const estimate = fleetEstimate(costs, assumptions);
  const limit = (name: keyof typeof estimate.limits) => (estimate.limits[name] === undefined ? '-' : `${fixed(estimate.limits[name] ?? Number.NaN, 0)} req/s`);
  return [
    `Throughput with 2 worker processes / 1: ${fixed(factor, 2)} × (${row.inFlight} in flight, 2 CPUs shared with other work).`,
    `Measured per request (1 process, throughput run): workers ${fixed(c.workerCpuMs, 2)} ms + driver ${fixed(c.driverCpuMs, 2)} ms CPU,`,
    `  PostgreSQL ${fixed(c.pgCpuMs, 2)} ms CPU, ${fixed(c.pgQueries, 1)} statements, ${fixed(c.wal?.own?.commits ?? Number.NaN, 2)} commits, ${fixed(walBytes, 0)} WAL bytes,`,
    `  Redis ≈ ${fixed(redisCpuMs ?? Number.NaN, 3)} ms CPU (INFO cpu over warm-up + throughput, less the rate of a ${IDLE_WINDOW_MS / 1000} s idle window before;`,
    `  ≤ ${fixed(redis?.upperBoundMs ?? Number.NaN, 3)} ms counting every client of this Redis; other clients come and go, so this is rough).`,
    `Model: ${assumptions.fleetCores} worker cores, one PostgreSQL primary of ${assumptions.pgCores} cores, ${fixed(assumptions.walBytesPerSecond / 1e6, 0)} MB/s of WAL, one Redis:`,
    `  workers ${limit('workers')}, PostgreSQL CPU ${limit('postgres')}, WAL ${limit('wal')}, Redis ${limit('redis')}`,
    `  → ${fixed(estimate.reached, 0)} req/s, bound by ${estimate.bound}; at that rate ${fixed(estimate.statementsPerSecond, 0)} statements/s and ${fixed(estimate.walBytesPerSecond / 1e6, 1)} MB/s of WAL.`,
    `  Past about ${fixed(estimate.coresToNextLimit, 0)} worker cores, more workers gain nothing (the lowest ceiling other than theirs).`,
  ];
}
