/**
 * Vetted's side of the review phase, through the real HTTP API (a child process running startApiServer)
 * with the stage workers in another child process, as `vetted api` and `vetted worker` would run:
 *
 *   park    POST /api/runs (policy require_human) → the pipeline runs extract … validate and parks the run;
 *           the driver learns it from the `completed` event of the job that ran the validate visit (the
 *           extract job, with local stages; pushed, like every completion in the bench), then reads the
 *           review as a reviewer's client would: GET /api/runs/:id.
 *   decide  POST /api/runs/:id/decision {reviewId, action: approve, payloadHash}.
 *   execute the execute stage runs (dry provider) and the run completes.
 *
 * Two targets share that: `roundTrip` times all of it (submit → the execute job's `completed` event);
 * `decision` parks untimed, waits for the previous run to finish (so the system is idle), and times from
 * just before the decision is sent to the execute job's `active` event: a worker took the execution.
 */
import { stageQueueName } from '../src/queue/queues.ts';
import type { System } from '../src/system.ts';
import type { ApiClient } from './api-client.ts';
import type { CompletionTracker } from './completion.ts';
import type { LoadTarget } from './load-driver.ts';
import { pushTo } from './review-timings.ts';
import { benchRequest } from './workload.ts';

export interface ParkedRun {
  id: string;
  reviewId: string;
  payloadHash: string;
}

/** Where one round trip's time went, in ms (throughput target). */
export interface RoundTripSplit {
  submit: number;
  pipeline: number;
  read: number;
  decision: number;
}

export interface VettedReview {
  roundTrip: LoadTarget;
  decision: LoadTarget;
  /** Decide → execute only, on runs parked beforehand (the seed's): the part a resume alone costs. */
  decideOnly(runs: readonly ParkedRun[]): LoadTarget;
  /** Parks one run through the API and returns its review (the seed's templates). */
  park(index: number, tag: string): Promise<ParkedRun>;
  /** Round-trip target, per tag, by request index. */
  splits: Map<string, RoundTripSplit[]>;
  /** Decision target, per tag: the decision's HTTP answer, and decision sent → execution completed. */
  decisionMs: Map<string, number[]>;
  decisionToCompletedMs: Map<string, number[]>;
  /** Decision target, per tag: the runs it decided (for the database's own timings). */
  decidedRuns: Map<string, string[]>;
}

interface Trackers {
  /** `completed` on the queue whose job ran the validate visit: the run is parked (require_human parks at the gate). */
  parked: CompletionTracker;
  /** `completed` on the execute queue. */
  executed: CompletionTracker;
}

interface RunView {
  status: string;
  pendingReview: { reviewId: string; payloadHash: string } | null;
}

export function createVettedReview(system: System, api: ApiClient, prefix: string, trackers: Trackers): VettedReview {
  const pool = system.database.pool;
  const byTag = new Map<string, string[]>();
  /** Submitted runs not yet decided: what a stall reports besides those waiting for execution. */
  const parking = new Set<string>();
  const splits = new Map<string, RoundTripSplit[]>();
  const decisionMs = new Map<string, number[]>();
  const decisionToCompletedMs = new Map<string, number[]>();
  const decidedRuns = new Map<string, string[]>();

  const park = async (index: number, tag: string, times?: number[]): Promise<ParkedRun> => {
    const submitted = await api.post<{ id: string }>('/api/runs', benchRequest(index, 'require_human'));
    times?.push(performance.now());
    pushTo(byTag, tag, submitted.id);
    parking.add(submitted.id);
    // Not `times?.push(await …)`: optional chaining would skip the wait itself when times is undefined.
    const parkedAt = await trackers.parked.wait(submitted.id);
    times?.push(parkedAt);
    const run = await api.get<RunView>(`/api/runs/${submitted.id}`);
    times?.push(performance.now());
    if (run.status !== 'awaiting_human' || !run.pendingReview) throw new Error(`review ${tag}: run ${submitted.id} is ${run.status} after its validate job, not parked`);
    return { id: submitted.id, reviewId: run.pendingReview.reviewId, payloadHash: run.pendingReview.payloadHash };
  };
  const decide = async (run: ParkedRun): Promise<void> => {
    const answer = await api.post<{ route: string }>(`/api/runs/${run.id}/decision`, { reviewId: run.reviewId, action: 'approve', payloadHash: run.payloadHash });
    parking.delete(run.id);
    if (answer.route !== 'execute') throw new Error(`review: approving run ${run.id} routed to ${answer.route}, not execute`);
  };
  const verify = async (tag: string, expected: number) => {
    const ids = byTag.get(tag) ?? [];
    const { rows } = await pool.query<{ status: string; n: number }>('select status, count(*)::int as n from runs where id = any($1::uuid[]) group by status', [ids]);
    const completed = rows.find((row) => row.status === 'completed')?.n ?? 0;
    if (ids.length !== expected || completed !== expected || rows.length !== 1) {
      throw new Error(`vetted review ${tag}: expected ${expected} completed runs, found ${rows.map((r) => `${r.n} ${r.status}`).join(', ') || 'none'}`);
    }
  };
  const describe = async (waiting: string[]) => {
    const ids = [...waiting, ...parking];
    const { rows } = await pool.query<{ status: string; stage: string; n: number }>(
      'select status, stage, count(*)::int as n from runs where id = any($1::uuid[]) group by status, stage',
      [ids],
    );
    return `Their runs (including ${parking.size} not decided yet): ${rows.map((r) => `${r.n} ${r.status} at ${r.stage}`).join(', ') || 'none found'}.`;
  };

  const common = { system: 'vetted review', prefix, lastQueue: stageQueueName('execute'), describe };
  let previous: { id: string; decidedAt: number; tag: string } | undefined;
  const awaitPrevious = async () => {
    if (!previous) return;
    const { id, decidedAt, tag } = previous;
    previous = undefined;
    pushTo(decisionToCompletedMs, tag, (await trackers.executed.wait(id)) - decidedAt);
  };

  return {
    park: (index, tag) => park(index, tag),
    decideOnly: (runs) => ({
      ...common,
      system: 'vetted resume',
      label: 'decide → execute, seeded runs',
      async submit(index, tag) {
        const run = runs[index];
        if (!run) throw new Error(`review: only ${runs.length} parked runs were prepared, request ${index} has none`);
        pushTo(byTag, tag, run.id);
        await decide(run);
        return run.id;
      },
      verify,
    }),
    splits,
    decisionMs,
    decisionToCompletedMs,
    decidedRuns,
    roundTrip: {
      ...common,
      label: 'park → decide → execute',
      async submit(index, tag) {
        const times = [performance.now()];
        const run = await park(index, tag, times);
        await decide(run);
        times.push(performance.now());
        const [t0 = 0, t1 = 0, t2 = 0, t3 = 0, t4 = 0] = times;
        const list = splits.get(tag) ?? [];
        list[index] = { submit: t1 - t0, pipeline: t2 - t1, read: t3 - t2, decision: t4 - t3 };
        splits.set(tag, list);
        return run.id;
      },
      verify,
    },
    decision: {
      ...common,
      label: 'decision → execution started',
      endEvent: 'active',
      async submit(index, tag) {
        // One at a time means an idle system: the previous run finishes executing before the next parks.
        await awaitPrevious();
        const run = await park(index, tag);
        const startedAt = performance.now();
        await decide(run);
        pushTo(decisionMs, tag, performance.now() - startedAt);
        pushTo(decidedRuns, tag, run.id);
        previous = { id: run.id, decidedAt: startedAt, tag };
        return { requestId: run.id, startedAt };
      },
      async verify(tag, expected) {
        // The driver stops at `active`; the last execution may still be running.
        await awaitPrevious();
        await verify(tag, expected);
      },
    },
  };
}
