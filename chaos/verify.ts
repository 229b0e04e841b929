/**
 * Drain and verify. After the load, wait (bounded) until every acknowledged run is at rest, then count, from
 * PostgreSQL and from the provider simulators' own logs of what ran (sim-executions.ts: Replicate predictions
 * created, fal submissions queued, OpenAI calls run):
 *
 *   lost            acknowledged run ids that are not in PostgreSQL, plus runs still in flight after the
 *                   deadline that did not move during a further observation window and have no live job in
 *                   Redis (see findStuck)
 *   unsettled       in flight after the deadline but moving or waiting on a live job: reported, not lost
 *   executed twice  per run, from the executions at the sims (tagged with the run's requestKey in the prompt)
 *                   and the ledger rows (executions): more executions than ledger steps, or more ledger steps
 *                   than 1 + the "retry"/"approve" decisions at response reviews and error recoveries (the
 *                   only deliberate re-runs), or one provider handle recorded for two steps
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { StageName } from '../src/engine/stages.ts';
import { stageJobId, type QueueSet } from '../src/queue/queues.ts';
import { log, sleep } from './log.ts';
import type { Submission } from './load.ts';
import { tagOf } from './mix.ts';
import { countByProvider, type SimExecution } from './sim-executions.ts';

const TERMINAL = new Set(['completed', 'failed', 'cancelled', 'expired']);
/** How long runs still in flight after the deadline are watched for any movement before they count as lost. */
const STUCK_WINDOW_MS = 15_000;
/**
 * A run that looks stuck after one window is watched for more windows, up to this many in all: a reconciler
 * pass on a loaded machine can take longer than one window to reach it. A lost run never moves, so watching
 * longer hides nothing; a run that moves in any window was late, not lost.
 */
const STUCK_WINDOWS = 4;

export interface RunFacts {
  id: string;
  requestKey: string | null;
  status: string;
  stage: string;
  attempt: number;
  error: { code?: string; message?: string; stage?: string } | null;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
}

export interface Doubled {
  runId: string;
  why: string;
}

export interface Verdict {
  acknowledged: Submission[];
  notAcknowledged: Submission[];
  runs: Map<string, RunFacts>;
  missing: string[];
  stuck: string[];
  unsettled: string[];
  doubled: Doubled[];
  /** Executions at the sims, and per provider (`replicate 412, fal 20, openai 31`). */
  executions: number;
  executionsByProvider: string;
  unrecordedExecutions: number;
  untaggedExecutions: number;
  /** Runs that went through at least one review (a `review.created` event). */
  reviewed: Set<string>;
  reviewReasons: Map<string, number>;
  requeued: number;
  duplicateReviewsRefused: number;
  /** One run id answered for two different requestKeys, or two run ids for one: intake idempotency broken. */
  idempotencyBreaks: string[];
}

export function connect(databaseUrl: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 3 });
  pool.on('error', () => undefined);
  return pool;
}

/**
 * Polls until every acknowledged run is terminal, or `deadlineMs` passes. Parked runs count as at rest only
 * at the deadline (the reviewer is still working on them until then).
 */
export async function drain(pool: pg.Pool, runIds: readonly string[], deadlineMs: number): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  let lastLog = 0;
  while (Date.now() < deadline) {
    const counts = await statusCounts(pool, runIds).catch(() => undefined);
    if (counts) {
      const open = [...counts].filter(([status]) => !TERMINAL.has(status)).reduce((sum, [, n]) => sum + n, 0);
      if (open === 0) return;
      if (Date.now() - lastLog > 10_000) {
        lastLog = Date.now();
        log(`drain: ${open} of ${runIds.length} not terminal yet (${[...counts].filter(([s]) => !TERMINAL.has(s)).map(([s, n]) => `${s} ${n}`).join(', ')})`);
      }
    }
    await sleep(1000);
  }
  log(`drain: deadline reached`);
}

async function statusCounts(pool: pg.Pool, runIds: readonly string[]): Promise<Map<string, number>> {
  const { rows } = await pool.query<{ status: string; n: string }>('select status, count(*) as n from runs where id = any($1::uuid[]) group by status', [runIds]);
  return new Map(rows.map((r) => [r.status, Number(r.n)]));
}

/** Job states that mean "the work is in Redis and will happen" (the reconciler's own definition). */
const LIVE_JOB_STATES = new Set(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']);

/**
 * Runs in flight after the drain are watched for STUCK_WINDOW_MS. At the end of it, a run is:
 *   settled    terminal or parked by now;
 *   unsettled  still in flight, but it moved, or its stage job is alive in Redis (a retry waiting out its
 *              backoff, say): late, not lost;
 *   stuck      still in flight, did not move, and Redis holds no live job for it: nothing will ever move
 *              it, which is what a lost run looks like (the reconciler should have requeued it in seconds).
 */
export async function findStuck(pool: pg.Pool, queues: QueueSet, runIds: readonly string[]): Promise<{ stuck: string[]; unsettled: string[] }> {
  const snapshot = async (ids: readonly string[]) => {
    const { rows } = await pool.query<{ id: string; stage: StageName; attempt: number; mark: string }>(
      `select r.id, r.stage, r.attempt, r.status || ':' || r.attempt || ':' || r.updated_at::text || ':' || coalesce((select max(e.id) from run_events e where e.run_id = r.id), 0) as mark
       from runs r where r.id = any($1::uuid[]) and r.status in ('queued', 'extracting', 'assembling', 'building', 'validating', 'executing')`,
      [ids],
    );
    return new Map(rows.map((r) => [r.id, r]));
  };
  let before = await snapshot(runIds);
  if (before.size === 0) return { stuck: [], unsettled: [] };
  log(`verify: ${before.size} run(s) still in flight after the deadline; watching them for ${STUCK_WINDOW_MS / 1000} s`);
  const unsettled: string[] = [];
  let stuck: string[] = [];
  for (let window = 1; window <= STUCK_WINDOWS; window++) {
    await sleep(STUCK_WINDOW_MS);
    // A run that settled (or parked) meanwhile is not in `after`: neither stuck nor unsettled.
    const after = await snapshot([...before.keys()]);
    stuck = [];
    for (const [id, now] of after) {
      const moved = before.get(id)?.mark !== now.mark;
      const state = await queues.stages[now.stage].getJobState(stageJobId({ runId: id, stage: now.stage, attempt: now.attempt })).catch(() => 'unknown');
      (moved || LIVE_JOB_STATES.has(state) ? unsettled : stuck).push(id);
    }
    if (stuck.length === 0 || window === STUCK_WINDOWS) break;
    log(`verify: ${stuck.length} run(s) did not move and have no live job; watching them ${STUCK_WINDOW_MS / 1000} s more (window ${window + 1} of ${STUCK_WINDOWS})`);
    before = new Map([...after].filter(([id]) => stuck.includes(id)));
  }
  return { stuck, unsettled };
}

export async function verify(pool: pg.Pool, tenantId: string, submissions: readonly Submission[], created: readonly SimExecution[], stuckCheck: { stuck: string[]; unsettled: string[] }): Promise<Verdict> {
  const acknowledged = submissions.filter((s) => s.runId !== undefined);
  const runs = await loadRuns(pool, tenantId);
  const byKey = new Map([...runs.values()].filter((r) => r.requestKey).map((r) => [r.requestKey as string, r.id]));
  const missing = acknowledged.filter((s) => !runs.has(s.runId as string)).map((s) => s.runId as string);
  // A stored run under the same requestKey but another id: the retried submission was not idempotent.
  // (No stored run at all is already counted as lost.)
  const idempotencyBreaks = acknowledged
    .filter((s) => byKey.has(s.planned.requestKey) && byKey.get(s.planned.requestKey) !== s.runId)
    .map((s) => `${s.planned.requestKey}: acknowledged as ${s.runId}, stored as ${byKey.get(s.planned.requestKey)}`);
  const doubles = await findDoubles(pool, byKey, created);
  const events = await pool.query<{ run_id: string; type: string; reason: string | null }>(
    "select run_id, type, data->>'reason' as reason from run_events where type in ('review.created', 'run.requeued', 'review.duplicate_refused')",
  );
  const reviewReasons = new Map<string, number>();
  const reviewed = new Set<string>();
  for (const e of events.rows.filter((e) => e.type === 'review.created')) {
    reviewed.add(e.run_id);
    reviewReasons.set(e.reason ?? '?', (reviewReasons.get(e.reason ?? '?') ?? 0) + 1);
  }
  return {
    acknowledged,
    notAcknowledged: submissions.filter((s) => s.runId === undefined),
    runs,
    missing,
    stuck: stuckCheck.stuck,
    unsettled: stuckCheck.unsettled,
    ...doubles,
    executions: created.length,
    executionsByProvider: countByProvider(created),
    reviewed,
    reviewReasons,
    requeued: events.rows.filter((e) => e.type === 'run.requeued').length,
    duplicateReviewsRefused: events.rows.filter((e) => e.type === 'review.duplicate_refused').length,
    idempotencyBreaks,
  };
}

/** The executed-twice rules in the header, run by run, over the ledger and the sims' logs. */
async function findDoubles(pool: pg.Pool, byKey: Map<string, string>, created: readonly SimExecution[]) {
  const ledger = await pool.query<LedgerStep>('select run_id, step, prediction_id from executions');
  // A person who says "run it again" after a response review or an error recovery takes responsibility for
  // a new ledger step; nothing else may open one.
  const retries = await pool.query<{ run_id: string; n: string }>(
    "select run_id, count(*) as n from decisions where action in ('retry', 'approve') and parsed->>'checkpoint' in ('response_review', 'error_recovery') group by run_id",
  );
  return judgeDoubles({ ledger: ledger.rows, deliberate: new Map(retries.rows.map((r) => [r.run_id, Number(r.n)])), executions: created, byKey });
}

export interface LedgerStep {
  run_id: string;
  step: string;
  prediction_id: string | null;
}

export interface DoublesInput {
  ledger: readonly LedgerStep[];
  /** Per run, the decisions that may open a new ledger step (see findDoubles). */
  deliberate: ReadonlyMap<string, number>;
  executions: readonly SimExecution[];
  /** requestKey → run id. */
  byKey: ReadonlyMap<string, string>;
}

/** The executed-twice rules, on facts already read: a run with more executions at a sim than it may have. */
export function judgeDoubles({ ledger, deliberate, executions, byKey }: DoublesInput) {
  const stepsByRun = groupBy(ledger, (row) => row.run_id);
  const recordedIds = new Map<string, number>();
  for (const row of ledger) if (row.prediction_id) recordedIds.set(row.prediction_id, (recordedIds.get(row.prediction_id) ?? 0) + 1);
  const tagged = executions.filter((p) => byKey.has(tagOf(p.input) ?? ''));
  const executionsByRun = groupBy(tagged, (p) => byKey.get(tagOf(p.input) ?? '') as string);

  const doubled: Doubled[] = [];
  for (const runId of new Set([...executionsByRun.keys(), ...stepsByRun.keys()])) {
    const ran = executionsByRun.get(runId) ?? [];
    const steps = stepsByRun.get(runId) ?? [];
    const allowedSteps = 1 + (deliberate.get(runId) ?? 0);
    const why: string[] = [];
    if (ran.length > steps.length) why.push(`${ran.length} executions at ${[...new Set(ran.map((e) => e.provider))].join(' and ')} for ${steps.length} ledger step(s)`);
    if (steps.length > allowedSteps) why.push(`${steps.length} ledger steps but only ${allowedSteps - 1} decision(s) that may re-run it`);
    for (const step of steps) if (step.prediction_id && (recordedIds.get(step.prediction_id) ?? 0) > 1) why.push(`handle ${step.prediction_id} recorded for two steps`);
    if (why.length > 0) doubled.push({ runId, why: why.join('; ') });
  }
  return {
    doubled,
    unrecordedExecutions: executions.filter((p) => !recordedIds.has(p.id)).length,
    untaggedExecutions: executions.length - tagged.length,
  };
}

async function loadRuns(pool: pg.Pool, tenantId: string): Promise<Map<string, RunFacts>> {
  const { rows } = await pool.query<{
    id: string; request_key: string | null; status: string; stage: string; attempt: number; error: RunFacts['error'];
    created_at: Date; updated_at: Date; completed_at: Date | null;
  }>('select id, request_key, status, stage, attempt, error, created_at, updated_at, completed_at from runs where tenant_id = $1', [tenantId]);
  return new Map(rows.map((r) => [r.id, {
    id: r.id, requestKey: r.request_key, status: r.status, stage: r.stage, attempt: r.attempt, error: r.error,
    createdAt: r.created_at, updatedAt: r.updated_at, completedAt: r.completed_at,
  }]));
}

/** Everything PostgreSQL and the simulators know about one run, for the evidence files of a failed check. */
export async function evidence(pool: pg.Pool, runId: string, created: readonly SimExecution[]): Promise<Record<string, unknown>> {
  const one = async (sql: string) => (await pool.query(sql, [runId])).rows;
  const [run] = await one('select * from runs where id = $1');
  const requestKey = (run as { request_key?: string } | undefined)?.request_key;
  return {
    run,
    events: await one('select id, type, actor, at, data from run_events where run_id = $1 order by id'),
    decisions: await one('select id, review_id, actor, action, parsed, at from decisions where run_id = $1 order by id'),
    executions: await one('select * from executions where run_id = $1 order by started_at'),
    executionsAtSims: created.filter((p) => requestKey && tagOf(p.input) === requestKey),
  };
}

/**
 * Where the time went, per stage: how long the handler ran (durationMs in `stage.completed`) and how long
 * the run waited in the queue before that (from the previous event to the stage claim), in ms percentiles.
 */
export async function stageTimings(pool: pg.Pool, tenantId: string): Promise<Record<string, unknown>[]> {
  const { rows } = await pool.query(
    `with e as (
       select run_id, type, at, data, lag(at) over (partition by run_id order by id) as prev_at from run_events where tenant_id = $1
     )
     select data->>'stage' as stage, count(*) as n,
       round(percentile_cont(0.5) within group (order by (data->>'durationMs')::float)::numeric, 1) as run_p50_ms,
       round(percentile_cont(0.99) within group (order by (data->>'durationMs')::float)::numeric, 1) as run_p99_ms,
       round(percentile_cont(0.5) within group (order by extract(epoch from at - prev_at) * 1000)::numeric, 1) as since_previous_event_p50_ms,
       round(percentile_cont(0.99) within group (order by extract(epoch from at - prev_at) * 1000)::numeric, 1) as since_previous_event_p99_ms
     from e where type = 'stage.completed' and data ? 'durationMs' group by 1 order by 1`,
    [tenantId],
  );
  return rows;
}

/**
 * The run's tables as JSON lines (and the sims' logs of what ran), for a post-mortem after the private
 * database is gone: `jq` or a few lines of code answer most questions from them.
 */
export async function exportTables(pool: pg.Pool, dir: string, created: readonly SimExecution[], submissions: readonly Submission[]): Promise<void> {
  const tables: Record<string, string> = {
    runs: "select id, request_key, (select body->>'prompt' from run_documents d where d.run_id = runs.id and d.kind = 'request') as prompt, status, stage, attempt, execution_seq, builder, provider, policy, error, pending_review_id, created_at, updated_at, completed_at from runs order by created_at",
    run_events: 'select id, run_id, type, actor, at, data from run_events order by id',
    decisions: 'select id, run_id, review_id, actor, action, parsed, edits, at from decisions order by id',
    executions: 'select run_id, step, status, prediction_id, payload_hash, started_at, finished_at from executions order by started_at',
  };
  for (const [name, sql] of Object.entries(tables)) {
    const { rows } = await pool.query(sql);
    writeFileSync(path.join(dir, `${name}.jsonl`), rows.map((row) => JSON.stringify(row)).join('\n'));
  }
  writeFileSync(path.join(dir, 'sim-executions.jsonl'), created.map((p) => JSON.stringify({ ...p, tag: tagOf(p.input) })).join('\n'));
  const client = submissions.map(({ planned, ...s }) => JSON.stringify({ requestKey: planned.requestKey, kind: planned.kind, ...s, sentAt: new Date(s.sentAt), ackAt: s.ackAt && new Date(s.ackAt) }));
  writeFileSync(path.join(dir, 'submissions.jsonl'), client.join('\n'));
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}
