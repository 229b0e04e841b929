/**
 * The review round trip taken apart: each step a reviewer's client and the workers go through, run one at a
 * time on freshly parked runs, with what it cost and where.
 *
 *   list    GET /api/reviews/pending            (API process)
 *   read    GET /api/runs/:id                   (API process)
 *   decide  POST /api/runs/:id/decision approve (API process, up to the answer)
 *   resume  the execute stage after the decision (worker process, until its job completes)
 *
 * Per step: PostgreSQL statements and Redis commands sent by the process that served it, that process's CPU,
 * PostgreSQL backends' CPU, and the wall time (p50). Counts do not move with machine load; CPU moves little;
 * wall time moves with everything else and is there for orientation only.
 *
 * Steps run one request at a time so each one's costs belong to it alone: decide waits for the run's execution
 * before the next decision, which puts the execution's cost in resume, not in the next decide.
 */
import type pg from 'pg';
import type { ApiClient } from './api-client.ts';
import type { CompletionTracker } from './completion.ts';
import { createCostMeter, type CostMeter } from './cost-meter.ts';
import { ascending, fixed, formatTable, percentile } from './report.ts';
import type { ParkedRun } from './review-vetted.ts';
import type { WorkerProcess, WorkerStats } from './worker-process.ts';

export type ReviewStep = 'list' | 'read' | 'decide' | 'resume';

export interface StepCosts {
  step: ReviewStep;
  /** Who served it: the API process or the worker process. */
  servedBy: 'api' | 'worker';
  requests: number;
  statements: number;
  redisCommands: number;
  processCpuMs: number;
  /** undefined when the PostgreSQL server's processes cannot be read (not on this machine). */
  pgCpuMs: number | undefined;
  wallP50Ms: number;
}

export interface StepProbe {
  api: WorkerProcess;
  workers: WorkerProcess;
  client: ApiClient;
  pool: pg.Pool;
  databaseUrl: string;
  /** `completed` on the execute queue. */
  executed: CompletionTracker;
  /** Parks the runs the probe decides (untimed). */
  park(index: number): Promise<ParkedRun>;
}

/** Measures every step over `count` requests each. */
export async function measureReviewSteps(probe: StepProbe, count: number): Promise<StepCosts[]> {
  const runs: ParkedRun[] = [];
  for (let index = 0; index < count; index++) runs.push(await probe.park(index));
  const list = await measureStep(probe, 'list', count, () => probe.client.get('/api/reviews/pending'));
  const read = await measureStep(probe, 'read', count, (index) => probe.client.get(`/api/runs/${runs[index]!.id}`));
  const [decide, resume] = await measureDecideAndResume(probe, runs);
  return [list, read, decide, resume];
}

async function measureStep(probe: StepProbe, step: ReviewStep, count: number, call: (index: number) => Promise<unknown>): Promise<StepCosts> {
  const wall: number[] = [];
  const before = await snapshot(probe);
  for (let index = 0; index < count; index++) {
    const startedAt = performance.now();
    await call(index);
    wall.push(performance.now() - startedAt);
  }
  const after = await snapshot(probe);
  return await costsOf(probe, step, 'api', before, after, count, wall);
}

/** Each decision, then its execution to the end: the API's share is decide, the workers' is resume. */
async function measureDecideAndResume(probe: StepProbe, runs: readonly ParkedRun[]): Promise<[StepCosts, StepCosts]> {
  const decideWall: number[] = [];
  const resumeWall: number[] = [];
  const before = await snapshot(probe);
  for (const run of runs) {
    const startedAt = performance.now();
    const answer = await probe.client.post<{ route: string }>(`/api/runs/${run.id}/decision`, { reviewId: run.reviewId, action: 'approve', payloadHash: run.payloadHash });
    const answeredAt = performance.now();
    if (answer.route !== 'execute') throw new Error(`review steps: approving run ${run.id} routed to ${answer.route}, not execute`);
    decideWall.push(answeredAt - startedAt);
    resumeWall.push((await probe.executed.wait(run.id)) - answeredAt);
  }
  const after = await snapshot(probe);
  return [
    await costsOf(probe, 'decide', 'api', before, after, runs.length, decideWall),
    await costsOf(probe, 'resume', 'worker', before, after, runs.length, resumeWall),
  ];
}

interface Snapshot {
  api: WorkerStats;
  workers: WorkerStats;
  database: Awaited<ReturnType<ReturnType<typeof createCostMeter>['snapshot']>>;
}

async function snapshot(probe: StepProbe): Promise<Snapshot> {
  const [api, workers] = await Promise.all([probe.api.stats(), probe.workers.stats()]);
  return { api, workers, database: await databaseMeter(probe).snapshot() };
}

const databaseMeters = new WeakMap<StepProbe, CostMeter>();

/** A meter over no process, one per probe: only its PostgreSQL backends' CPU is used. */
function databaseMeter(probe: StepProbe): CostMeter {
  let meter = databaseMeters.get(probe);
  if (!meter) databaseMeters.set(probe, (meter = createCostMeter([], probe.pool, probe.databaseUrl)));
  return meter;
}

async function costsOf(probe: StepProbe, step: ReviewStep, servedBy: 'api' | 'worker', before: Snapshot, after: Snapshot, requests: number, wall: number[]): Promise<StepCosts> {
  const [from, to] = servedBy === 'api' ? [before.api, after.api] : [before.workers, after.workers];
  const per = (a: number, b: number) => (b - a) / requests;
  // PostgreSQL's CPU is per backend, not per client process: decide and resume share one window, so each gets
  // the whole window's figure, marked in the table.
  const database = await databaseMeter(probe).perRequest(before.database, after.database, requests);
  return {
    step,
    servedBy,
    requests,
    statements: per(from.calls.pgQueries, to.calls.pgQueries),
    redisCommands: per(from.calls.redisCommands, to.calls.redisCommands),
    processCpuMs: per(from.cpu.user + from.cpu.system, to.cpu.user + to.cpu.system) / 1000,
    pgCpuMs: database.pgCpuMs,
    wallP50Ms: wall.length === 0 ? Number.NaN : percentile(ascending(wall), 0.5),
  };
}

/** The table the review phase prints. */
export function formatReviewSteps(rows: readonly StepCosts[]): string[] {
  const table = formatTable(
    ['step', 'served by', 'n', 'statements', 'redis cmds', 'process CPU ms', 'PostgreSQL CPU ms', 'wall p50 ms'],
    rows.map((row) => [
      row.step,
      row.servedBy,
      String(row.requests),
      fixed(row.statements, 1),
      fixed(row.redisCommands, 1),
      fixed(row.processCpuMs, 2),
      row.pgCpuMs === undefined ? '-' : `${fixed(row.pgCpuMs, 2)}${row.step === 'decide' || row.step === 'resume' ? ' (decide + resume)' : ''}`,
      fixed(row.wallP50Ms, 2),
    ]),
  );
  return table.split('\n');
}
