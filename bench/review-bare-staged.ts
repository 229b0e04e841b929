/**
 * The review phase's fair baseline, "bare staged review": the same five queue hops as Vetted's round trip and
 * the same decision compare-and-set, with no other work. Vetted's round trip is judged against this one; the
 * plain bare review (review-bare.ts: a row, a compare-and-set, one job) stays beside it as the floor of a
 * review with no pipeline at all.
 *
 *   park    INSERT a row (queued) and add a job to bench-staged-1; the workers of queues 1–3 each UPDATE the
 *           row (stage, status) and add the next job; queue 4's (validate) sets it `awaiting_human` with a new
 *           review id. The driver learns it from queue 4's `completed` event, as Vetted's driver learns a run
 *           parked from the validate job's, then reads the review id (one SELECT, where Vetted does GET).
 *   decide  UPDATE … SET status = 'approved' WHERE id = $1 AND status = 'awaiting_human' AND review_id = $2,
 *           then a job on bench-staged-5.
 *   execute queue 5's worker marks the row `completed`; the round trip ends at that job's `completed` event.
 *
 * Same Redis, PostgreSQL, worker process, per-stage concurrency, pool size and job options as Vetted.
 */
import { randomUUID } from 'node:crypto';
import { Queue, Worker, type Job } from 'bullmq';
import pg from 'pg';
import { STAGE_NAMES, type StageName } from '../src/engine/stages.ts';
import { createRedisConnection, redisOptionsFromUrl, stageJobOptions } from '../src/queue/queues.ts';
import type { CompletionTracker } from './completion.ts';
import type { LoadTarget } from './load-driver.ts';
import type { BareWorkersSpec } from './worker-process.ts';

const HOPS = STAGE_NAMES.map((stage, index) => ({ stage, queue: `bench-staged-${index + 1}`, options: stageJobOptions(stage) }));
/** Queue 4 (validate) parks; queue 5 (execute) runs after the decision. */
const PARK_HOP = 3;
export const STAGED_PARK_QUEUE = HOPS[PARK_HOP]?.queue ?? 'bench-staged-4';
export const STAGED_EXECUTE_QUEUE = HOPS[HOPS.length - 1]?.queue ?? 'bench-staged-5';

interface StagedJobData {
  id: string;
}

const CREATE_TABLE = `create table if not exists bench_staged_reviews (
  id uuid primary key,
  tag text not null,
  stage integer not null,
  status text not null,
  review_id uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
)`;

export const BARE_STAGED_DESCRIPTION = [
  'bare staged: INSERT a row, then queues bench-staged-1 … 4 each UPDATE it and add the next job; queue 4 sets it',
  '      awaiting_human with a review id (the driver reads queue 4\'s `completed` event, then SELECTs the review id);',
  "      the decision is the same compare-and-set (… WHERE id = $1 AND status = 'awaiting_human' AND review_id = $2)",
  '      plus a job on bench-staged-5, whose worker marks the row completed. Five hops, no other work.',
];

export interface BareStagedReview {
  roundTrip: LoadTarget;
  pool: pg.Pool;
  close(): Promise<void>;
}

/** @param parked a tracker of `completed` on STAGED_PARK_QUEUE under the same prefix. */
export async function createBareStagedReview(databaseUrl: string, redisUrl: string, prefix: string, poolSize: number, parked: CompletionTracker): Promise<BareStagedReview> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
  const connection = createRedisConnection(redisUrl);
  const [first, last] = [HOPS[0], HOPS[HOPS.length - 1]];
  if (!first || !last) throw new Error('bare staged review: no stages');
  const firstQueue = new Queue<StagedJobData>(first.queue, { connection, prefix, defaultJobOptions: first.options });
  const executeQueue = new Queue<StagedJobData>(last.queue, { connection, prefix, defaultJobOptions: last.options });
  await pool.query(CREATE_TABLE);

  const verify = async (tag: string, expected: number) => {
    const { rows } = await pool.query<{ status: string; n: number }>('select status, count(*)::int as n from bench_staged_reviews where tag = $1 group by status', [tag]);
    const done = rows.find((row) => row.status === 'completed')?.n ?? 0;
    if (done !== expected || rows.length !== 1) throw new Error(`bare staged review ${tag}: expected ${expected} completed rows, found ${rows.map((r) => `${r.n} ${r.status}`).join(', ') || 'none'}`);
  };
  return {
    roundTrip: {
      system: 'bare staged review',
      label: 'park → decide → execute',
      prefix,
      lastQueue: STAGED_EXECUTE_QUEUE,
      async submit(_index, tag) {
        const id = randomUUID();
        await pool.query("insert into bench_staged_reviews (id, tag, stage, status) values ($1, $2, 0, 'queued')", [id, tag]);
        await firstQueue.add('stage', { id }, { jobId: `${id}.1` });
        await parked.wait(id);
        const { rows } = await pool.query<{ reviewId: string | null; status: string }>('select review_id as "reviewId", status from bench_staged_reviews where id = $1', [id]);
        const reviewId = rows[0]?.reviewId;
        if (!reviewId || rows[0]?.status !== 'awaiting_human') throw new Error(`bare staged review ${id}: ${rows[0]?.status ?? 'missing'} after its park hop`);
        const { rowCount } = await pool.query(
          "update bench_staged_reviews set status = 'approved', updated_at = now() where id = $1 and status = 'awaiting_human' and review_id = $2",
          [id, reviewId],
        );
        if (rowCount !== 1) throw new Error(`bare staged review ${id}: the decision's compare-and-set matched ${rowCount} rows`);
        await executeQueue.add('stage', { id }, { jobId: `${id}.${HOPS.length}` });
        return id;
      },
      verify,
      async describe(ids) {
        const { rows } = await pool.query<{ status: string; n: number }>('select status, count(*)::int as n from bench_staged_reviews where id = any($1::uuid[]) group by status', [ids]);
        return `Their rows: ${rows.map((r) => `${r.n} ${r.status}`).join(', ') || 'none found'}.`;
      },
    },
    pool,
    async close() {
      await Promise.all([firstQueue.close(), executeQueue.close()]);
      await connection.quit().catch(() => connection.disconnect());
      await pool.end();
    },
  };
}

/** The worker side (bench/worker-host.ts): one Worker per hop, each with its stage's concurrency. */
export async function startBareStagedWorkers(spec: BareWorkersSpec<'bare-staged-review'>): Promise<{ close(): Promise<void> }> {
  const pool = new pg.Pool({ connectionString: spec.databaseUrl, max: spec.poolSize });
  pool.on('error', () => undefined);
  const connection = createRedisConnection(spec.redisUrl);
  const queues = HOPS.map((hop) => new Queue<StagedJobData>(hop.queue, { connection, prefix: spec.prefix, defaultJobOptions: hop.options }));
  const workers = HOPS.map((hop, index) => {
    const processor = async (job: Job<StagedJobData>) => {
      if (index === PARK_HOP) {
        await pool.query("update bench_staged_reviews set stage = $2, status = 'awaiting_human', review_id = gen_random_uuid(), updated_at = now() where id = $1", [job.data.id, index + 1]);
      } else if (index === HOPS.length - 1) {
        await pool.query("update bench_staged_reviews set stage = $2, status = 'completed', updated_at = now() where id = $1 and status = 'approved'", [job.data.id, index + 1]);
      } else {
        await pool.query('update bench_staged_reviews set stage = $2, status = $3, updated_at = now() where id = $1', [job.data.id, index + 1, `stage-${index + 1}`]);
        await queues[index + 1]?.add('stage', job.data, { jobId: `${job.data.id}.${index + 2}` });
      }
      return 'done';
    };
    return new Worker<StagedJobData>(hop.queue, processor, {
      connection: redisOptionsFromUrl(spec.redisUrl),
      prefix: spec.prefix,
      concurrency: spec.concurrency[hop.stage as StageName],
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
