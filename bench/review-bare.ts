/**
 * The review phase's baseline: the bare version of park → decide → execute, with no API, no pipeline and no
 * audit trail. Parking is one INSERT of a row already `awaiting_human` (with a review id and a small
 * payload) into its own table, bench_review_requests; the decision is a compare-and-set UPDATE
 * (`… WHERE id = $1 AND status = 'awaiting_human' AND review_id = $2`); then one BullMQ job on
 * bench-review-execute, whose worker (a no-op "execution") marks the row `completed`. The driver does the
 * park and the decision, as Vetted's driver does through the API; the worker runs in its own process with
 * the execute stage's concurrency and job options, like Vetted's.
 */
import { randomUUID } from 'node:crypto';
import { Queue, Worker, type Job } from 'bullmq';
import pg from 'pg';
import { createRedisConnection, redisOptionsFromUrl, stageJobOptions } from '../src/queue/queues.ts';
import type { CompletionTracker } from './completion.ts';
import type { LoadTarget } from './load-driver.ts';
import { pushTo } from './review-timings.ts';
import type { BareWorkersSpec } from './worker-process.ts';

export const BARE_EXECUTE_QUEUE = 'bench-review-execute';

interface BareJobData {
  id: string;
}

const CREATE_TABLE = `create table if not exists bench_review_requests (
  id uuid primary key,
  tag text not null,
  status text not null,
  review_id uuid not null,
  payload jsonb not null,
  parked_at timestamptz not null default now(),
  decided_at timestamptz,
  completed_at timestamptz
)`;

export const BARE_REVIEW_DESCRIPTION = [
  'bare: INSERT a row already awaiting_human (review id, small payload) into bench_review_requests; the decision',
  "      is UPDATE … SET status = 'approved' WHERE id = $1 AND status = 'awaiting_human' AND review_id = $2;",
  '      then one job on bench-review-execute, whose worker marks the row completed. No HTTP, no audit rows.',
];

export interface BareReview {
  /** Park → decide → execute, timed from the INSERT to the job's `completed` event. */
  roundTrip: LoadTarget;
  /** Decide → execute only, on `count` rows parked beforehand in one INSERT (untimed). */
  decideOnly(count: number, tag: string): Promise<LoadTarget>;
  /** Decision → execution started: the INSERT is not timed; from the UPDATE to the job's `active` event. */
  decision: LoadTarget;
  /** Per run tag of the decision target: each request's UPDATE + add, in ms. */
  decisionMs: Map<string, number[]>;
  /** The driver's pool (the cost meter reads the backends' CPU through it). */
  pool: pg.Pool;
  close(): Promise<void>;
}

/** @param completed a tracker of `completed` on the bare execute queue (the decision target waits on it). */
export async function createBareReview(databaseUrl: string, redisUrl: string, prefix: string, poolSize: number, completed: CompletionTracker): Promise<BareReview> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
  const connection = createRedisConnection(redisUrl);
  const queue = new Queue<BareJobData>(BARE_EXECUTE_QUEUE, { connection, prefix, defaultJobOptions: stageJobOptions('execute') });
  await pool.query(CREATE_TABLE);
  const decisionMs = new Map<string, number[]>();

  const park = async (index: number, tag: string): Promise<{ id: string; reviewId: string }> => {
    const id = randomUUID();
    const reviewId = randomUUID();
    const payload = { prompt: 'a watercolor lighthouse at dawn', seed: 1000 + index };
    await pool.query("insert into bench_review_requests (id, tag, status, review_id, payload) values ($1, $2, 'awaiting_human', $3, $4)", [id, tag, reviewId, payload]);
    return { id, reviewId };
  };
  const decide = async (id: string, reviewId: string): Promise<void> => {
    const { rowCount } = await pool.query(
      "update bench_review_requests set status = 'approved', decided_at = now() where id = $1 and status = 'awaiting_human' and review_id = $2",
      [id, reviewId],
    );
    if (rowCount !== 1) throw new Error(`bare review ${id}: the decision's compare-and-set matched ${rowCount} rows`);
    await queue.add('execute', { id }, { jobId: `${id}.execute` });
  };
  const verify = async (tag: string, expected: number) => {
    const { rows } = await pool.query<{ status: string; n: number }>('select status, count(*)::int as n from bench_review_requests where tag = $1 group by status', [tag]);
    const done = rows.find((row) => row.status === 'completed')?.n ?? 0;
    if (done !== expected || rows.length !== 1) throw new Error(`bare review ${tag}: expected ${expected} completed rows, found ${rows.map((r) => `${r.n} ${r.status}`).join(', ') || 'none'}`);
  };
  const describe = async (ids: string[]) => {
    const { rows } = await pool.query<{ status: string; n: number }>('select status, count(*)::int as n from bench_review_requests where id = any($1::uuid[]) group by status', [ids]);
    return `Their rows: ${rows.map((r) => `${r.n} ${r.status}`).join(', ') || 'none found'}.`;
  };

  const common = { prefix, lastQueue: BARE_EXECUTE_QUEUE, describe };
  /** The decision target's last request, until its execution completed (each submit waits for it). */
  let previous: string | undefined;
  return {
    roundTrip: {
      ...common,
      system: 'bare review',
      label: 'park → decide → execute',
      async submit(index, tag) {
        const { id, reviewId } = await park(index, tag);
        await decide(id, reviewId);
        return id;
      },
      verify,
    },
    decision: {
      ...common,
      system: 'bare review',
      label: 'decision → execution started',
      endEvent: 'active',
      async submit(index, tag) {
        // One at a time means an idle system: the previous request finishes executing first.
        if (previous) await completed.wait(previous);
        previous = undefined;
        const { id, reviewId } = await park(index, tag);
        const startedAt = performance.now();
        await decide(id, reviewId);
        pushTo(decisionMs, tag, performance.now() - startedAt);
        previous = id;
        return { requestId: id, startedAt };
      },
      async verify(tag, expected) {
        // The driver stops at `active`; the last execution may still be running.
        if (previous) await completed.wait(previous);
        previous = undefined;
        await verify(tag, expected);
      },
    },
    async decideOnly(count, tag) {
      const { rows } = await pool.query<{ id: string; reviewId: string }>(
        `insert into bench_review_requests (id, tag, status, review_id, payload)
         select gen_random_uuid(), $1, 'awaiting_human', gen_random_uuid(), jsonb_build_object('prompt', 'a watercolor lighthouse at dawn', 'seed', g)
         from generate_series(1, $2::int) as g
         returning id, review_id as "reviewId"`,
        [tag, count],
      );
      return {
        ...common,
        system: 'bare resume',
        label: 'decide → execute, parked rows',
        async submit(index) {
          const row = rows[index];
          if (!row) throw new Error(`bare review: only ${rows.length} rows were parked, request ${index} has none`);
          await decide(row.id, row.reviewId);
          return row.id;
        },
        verify,
      };
    },
    decisionMs,
    pool,
    async close() {
      await queue.close();
      await connection.quit().catch(() => connection.disconnect());
      await pool.end();
    },
  };
}

/** The worker side (runs in bench/worker-host.ts): the no-op execution, with the execute stage's concurrency. */
export async function startBareReviewWorker(spec: BareWorkersSpec<'bare-review'>): Promise<{ close(): Promise<void> }> {
  const pool = new pg.Pool({ connectionString: spec.databaseUrl, max: spec.poolSize });
  pool.on('error', () => undefined);
  const processor = async (job: Job<BareJobData>) => {
    await pool.query("update bench_review_requests set status = 'completed', completed_at = now() where id = $1 and status = 'approved'", [job.data.id]);
    return 'done';
  };
  const worker = new Worker<BareJobData>(BARE_EXECUTE_QUEUE, processor, {
    connection: redisOptionsFromUrl(spec.redisUrl),
    prefix: spec.prefix,
    concurrency: spec.concurrency.execute,
    maxStalledCount: 3,
  });
  await worker.waitUntilReady();
  return {
    async close() {
      await worker.close();
      await pool.end();
    },
  };
}
