/**
 * Phase `baseline`: the floor any BullMQ + PostgreSQL pipeline of five stages pays, on the same Redis,
 * PostgreSQL, worker process arrangement, worker concurrency, pool size and job options as Vetted.
 *
 * One request: INSERT one row (this process), add a job to queue 1; each of the five workers UPDATEs that
 * row (stage, status, updated_at) and adds the job for the next queue; the fifth sets status `completed`.
 * Jobs do nothing else. This file builds its own queues because they are not Vetted's (src/queue/queues.ts
 * stays the only place that makes Vetted's).
 */
import { randomUUID } from 'node:crypto';
import { Queue, Worker, type Job } from 'bullmq';
import pg from 'pg';
import { STAGE_NAMES, type StageName } from '../src/engine/stages.ts';
import { createRedisConnection, redisOptionsFromUrl, stageJobOptions } from '../src/queue/queues.ts';
import { createCostMeter } from './cost-meter.ts';
import { measureLoads, type LoadTarget } from './load-driver.ts';
import type { Phase } from './phase.ts';
import { startWorkerProcess, type WorkerHostSpec } from './worker-process.ts';

/** One queue per Vetted stage, in the same order, each with that stage's job options (retention, attempts). */
const CHAIN = STAGE_NAMES.map((stage, index) => ({ stage, queue: `bench-chain-${index + 1}`, options: stageJobOptions(stage) }));
const LAST_QUEUE = CHAIN[CHAIN.length - 1]?.queue ?? 'bench-chain-5';

interface ChainJobData {
  id: string;
}

const CREATE_TABLE = `create table if not exists bench_chain_requests (
  id uuid primary key,
  tag text not null,
  stage integer not null,
  status text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
)`;

export const BASELINE_DESCRIPTION = [
  'baseline: INSERT one row into bench_chain_requests, add a job to bench-chain-1; each of 5 queues',
  '          (bench-chain-1 … 5) runs a no-op job that UPDATEs that row (stage, status, updated_at) and adds',
  '          the next job; the 5th sets status `completed`. Same Redis, PostgreSQL, worker process, concurrency,',
  '          pool size and job options (retention, attempts) as Vetted.',
];

export const baselinePhase: Phase = {
  name: 'baseline',
  summary: 'A bare BullMQ chain of 5 queues with no-op jobs, one row inserted then updated per job, at the same loads',
  async run(context) {
    const { environment } = context;
    const prefix = environment.prefixFor('chain');
    const pool = new pg.Pool({ connectionString: environment.databaseUrl, max: environment.poolSize });
    const connection = createRedisConnection(environment.redisUrl);
    const first = new Queue<ChainJobData>(CHAIN[0]?.queue ?? 'bench-chain-1', { connection, prefix, defaultJobOptions: CHAIN[0]?.options });
    try {
      await pool.query(CREATE_TABLE);
      const spec: WorkerHostSpec = {
        kind: 'bare-chain',
        redisUrl: environment.redisUrl,
        databaseUrl: environment.databaseUrl,
        prefix,
        concurrency: { ...environment.concurrency },
        poolSize: environment.poolSize,
      };
      const workers = await startWorkerProcess(spec, context.options.cpuProfDir);
      try {
        const meter = createCostMeter(workers, pool, environment.databaseUrl);
        const loads = await measureLoads(context, chainTarget(pool, first, prefix), meter);
        return { loads, section: { title: 'What one baseline request does', lines: BASELINE_DESCRIPTION } };
      } finally {
        await workers.stop();
      }
    } finally {
      await first.close();
      await connection.quit().catch(() => connection.disconnect());
      await pool.end();
    }
  },
};

function chainTarget(pool: pg.Pool, first: Queue<ChainJobData>, prefix: string): LoadTarget {
  return {
    system: 'baseline',
    prefix,
    lastQueue: LAST_QUEUE,
    async submit(_index, tag) {
      const id = randomUUID();
      await pool.query("insert into bench_chain_requests (id, tag, stage, status) values ($1, $2, 0, 'queued')", [id, tag]);
      await first.add('chain', { id }, { jobId: `${id}.1` });
      return id;
    },
    async verify(tag, expected) {
      const { rows } = await pool.query<{ status: string; n: number }>('select status, count(*)::int as n from bench_chain_requests where tag = $1 group by status', [tag]);
      const completed = rows.find((row) => row.status === 'completed')?.n ?? 0;
      if (completed !== expected || rows.length !== 1) {
        throw new Error(`baseline ${tag}: expected ${expected} completed rows, found ${rows.map((r) => `${r.n} ${r.status}`).join(', ') || 'none'}`);
      }
    },
    async describe(ids) {
      const { rows } = await pool.query<{ status: string; n: number }>('select status, count(*)::int as n from bench_chain_requests where id = any($1::uuid[]) group by status', [ids]);
      return `Their rows: ${rows.map((r) => `${r.n} ${r.status}`).join(', ') || 'none found'}.`;
    },
  };
}

/** The worker side (runs in bench/worker-host.ts): one Worker per queue, as startStageWorkers does for Vetted. */
export async function startBareChainWorkers(spec: Extract<WorkerHostSpec, { kind: 'bare-chain' }>): Promise<{ close(): Promise<void> }> {
  const pool = new pg.Pool({ connectionString: spec.databaseUrl, max: spec.poolSize });
  pool.on('error', () => undefined);
  // Producers share one connection, as Vetted's QueueSet does.
  const connection = createRedisConnection(spec.redisUrl);
  const queues = CHAIN.map((link) => new Queue<ChainJobData>(link.queue, { connection, prefix: spec.prefix, defaultJobOptions: link.options }));
  const workers = CHAIN.map((link, index) => {
    const next = queues[index + 1];
    const processor = async (job: Job<ChainJobData>) => {
      const status = next ? `stage-${index + 1}` : 'completed';
      await pool.query('update bench_chain_requests set stage = $2, status = $3, updated_at = now() where id = $1', [job.data.id, index + 1, status]);
      if (next) await next.add('chain', job.data, { jobId: `${job.data.id}.${index + 2}` });
      return 'done';
    };
    return new Worker<ChainJobData>(link.queue, processor, {
      connection: redisOptionsFromUrl(spec.redisUrl),
      prefix: spec.prefix,
      concurrency: spec.concurrency[link.stage as StageName],
      maxStalledCount: 3,
    });
  });
  await Promise.all(workers.map((worker) => worker.waitUntilReady()));
  return {
    async close() {
      await Promise.all(workers.map((worker) => worker.close()));
      await Promise.all(queues.map((queue) => queue.close()));
      await connection.quit().catch(() => connection.disconnect());
      await pool.end();
    },
  };
}
