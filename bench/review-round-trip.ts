/**
 * Phase `review`: human review at scale. With `--review-seed` (100,000) parked runs in PostgreSQL:
 * - park → decide → execute round trips per second through the real HTTP API at `--review-in-flight` (50),
 *   and, at 1 in flight, decision → execution started (see review-vetted.ts for both definitions);
 * - the same two figures for the bare version (review-bare.ts): a row, a compare-and-set, a BullMQ job;
 * - `GET /api/reviews/pending` at that size (review-listing.ts).
 *
 * Process layout: the driver (this process) is the API's client and the bare version's producer. The API
 * runs in a child process (startApiServer on port 0), as `vetted api` would, so the driver's 50 lanes and
 * its event reading never share an event loop with the server; the stage workers run in another child, as
 * in every load phase. The bare version's worker runs in a child of its own.
 */
import { createSystem, type System } from '../src/system.ts';
import { STAGES, stageNamed, type StageName } from '../src/engine/stages.ts';
import { stageQueueName } from '../src/queue/queues.ts';
import { createApiClient, type ApiClient } from './api-client.ts';
import { Cleanup } from './cleanup.ts';
import { createCompletionTracker, type CompletionTracker } from './completion.ts';
import { createCostMeter, type CostMeter } from './cost-meter.ts';
import { measureLoads, measureOnce, type DriveInput, type LoadPlan } from './load-driver.ts';
import type { BenchContext, Phase, PhaseResult } from './phase.ts';
import { cpuImpliedRatio, fixed, formatTable, loadSummary, type LoadRow, type TargetVerdict } from './report.ts';
import { BARE_EXECUTE_QUEUE, BARE_REVIEW_DESCRIPTION, createBareReview } from './review-bare.ts';
import { BARE_STAGED_DESCRIPTION, createBareStagedReview, STAGED_PARK_QUEUE } from './review-bare-staged.ts';
import { LANGGRAPH_REVIEW_SYSTEM } from './langgraph-peer.ts';
import { measureListing, type ListingRow } from './review-listing.ts';
import { oldestPayloadReviews, SEED_CHECKPOINTS, seedParkedRuns, type SeedResult } from './review-seed.ts';
import { formatReviewSteps, measureReviewSteps, type StepCosts } from './review-steps.ts';
import { spreadLines } from './review-timings.ts';
import { createVettedReview, type VettedReview } from './review-vetted.ts';
import { checkRequestsExecute } from './vetted-pipeline.ts';
import { registerBenchModels } from './workload.ts';
import { startWorkerProcess, type WorkerProcess } from './worker-process.ts';

const BENCH_TENANT = 'bench-review';
/** The other half of the seeded runs: the listing must skip them. */
const OTHER_TENANT = 'bench-review-other';
const LISTING_CALLS = 200;
/** Requests per step of the step-by-step breakdown (review-steps.ts), one at a time. */
const STEP_REQUESTS = 100;
/** The round trip against the bare staged review (same five hops, same compare-and-set). */
const TARGETS = { stagedRoundTripRatio: 0.8, decisionP99Ms: 30, listingP99Ms: 50 };
/** The API's per-key limit (600/min by default) would throttle the bench, not measure Vetted. */
const API_ENV = { VETTED_RATE_LIMIT_PER_MINUTE: '1000000000' };

const LISTING_QUERIES = [
  { label: 'default (limit 50, oldest first)', path: '/api/reviews/pending' },
  ...SEED_CHECKPOINTS.map(({ checkpoint, share }) => ({ label: `checkpoint=${checkpoint} (${Math.round(share * 100)}% of rows)`, path: `/api/reviews/pending?checkpoint=${checkpoint}` })),
];

export const VETTED_REVIEW_DESCRIPTION = [
  'vetted: POST /api/runs (policy require_human); the pipeline runs extract → assemble → build → validate and',
  '        parks the run (the job that ran validate completing says so); GET /api/runs/:id reads reviewId + payloadHash;',
  '        POST /api/runs/:id/decision approves (one read, then one statement: compare-and-set on awaiting_human',
  '        + reviewId, the decision row, two events; then the execute job); execute (dry provider) completes it.',
];

export const reviewPhase: Phase = {
  name: 'review',
  summary: 'Park → decide → execute through the HTTP API with 100,000 parked runs, vs bare staged (5 hops + CAS) and bare; pending listing',
  optIn: true,
  ratios: [
    // Phase peers, when it runs in the same bench: LangGraph's interrupt() + Command({ resume }) round trip.
    { name: 'review round trips/s, Vetted / LangGraph interrupt + resume', against: 'peers', system: 'vetted review', againstSystem: LANGGRAPH_REVIEW_SYSTEM, load: 'throughput', metric: 'rate', atLeast: 3 },
  ],
  async run(context) {
    const local = new Cleanup();
    try {
      return await runReview(context, local);
    } finally {
      await local.runAll(context.note);
    }
  },
};

async function runReview(context: BenchContext, local: Cleanup): Promise<PhaseResult> {
  const stack = await startVettedStack(context, local);
  const vetted = await measureVettedReview(context, stack);
  // The bare version gets the machine to itself, as the baseline phase does.
  await stack.stop();
  const bare = await measureBare(context, vetted.plan, vetted.decideOnly);
  const staged = await measureBareStaged(context, vetted.plan);
  const loads = [...vetted.loads, ...bare.loads, ...staged];
  return {
    loads,
    section: { title: 'Human review round trips (phase review)', lines: reviewLines(context, vetted, bare) },
    verdicts: reviewVerdicts(loads, vetted.listing),
  };
}

/** Vetted as deployed: the driver's system (seeding, checks), stage workers and the API in child processes. */
interface VettedStack {
  system: System;
  meter: CostMeter;
  client: ApiClient;
  review: VettedReview;
  /** What the step-by-step breakdown reads: each process on its own, and the execute queue's completions. */
  processes: { api: WorkerProcess; workers: WorkerProcess; executed: CompletionTracker };
  /** Stops the API and the workers (also done by the cleanup if this is never called). */
  stop(): Promise<void>;
}

async function startVettedStack(context: BenchContext, local: Cleanup): Promise<VettedStack> {
  const { environment, options } = context;
  const prefix = environment.prefixFor('review');
  // The first system on the bench database migrates it (createSystem's default), as in the vetted phase.
  const system = await createSystem(environment.vettedConfig(prefix), { poolSize: environment.poolSize });
  local.defer('close the review system', () => system.close());
  await registerBenchModels(system);
  await checkRequestsExecute(system);
  const { key } = await system.apiKeys.create({ tenantId: BENCH_TENANT, role: 'admin', label: 'bench review' });

  const workers = await startWorkerProcess(
    { kind: 'vetted', env: environment.vettedEnv(prefix), concurrency: { ...environment.concurrency }, poolSize: environment.poolSize },
    options.cpuProfDir,
    'review-workers',
  );
  const stopWorkers = once(() => workers.stop());
  local.defer('stop the review workers', stopWorkers);
  const api = await startWorkerProcess({ kind: 'api', env: environment.vettedEnv(prefix, API_ENV), poolSize: environment.poolSize }, options.cpuProfDir, 'review-api');
  const stopApi = once(() => api.stop());
  local.defer('stop the API process', stopApi);
  if (!api.url) throw new Error('the API process did not say where it listens');
  const client = createApiClient(api.url, key, options.reviewInFlight + 8);
  local.defer('close the API client', async () => client.close());

  const tracker = (queue: string) => createCompletionTracker(environment.redisUrl, prefix, queue);
  const parkedQueue = stageQueueName(jobCarrying('validate', system.config.localStages));
  const trackers = { parked: await tracker(parkedQueue), executed: await tracker(stageQueueName('execute')) };
  local.defer('close the review trackers', () => Promise.all([trackers.parked.close(), trackers.executed.close()]).then(() => undefined));
  return {
    system,
    meter: createCostMeter([workers, api], system.database.pool, environment.databaseUrl),
    client,
    review: createVettedReview(system, client, prefix, trackers),
    processes: { api, workers, executed: trackers.executed },
    async stop() {
      await stopApi();
      await stopWorkers();
    },
  };
}

/**
 * The stage whose job finishes a visit of `stage`: with local stages, the job of the first stage of the chain
 * runs the rest in turn, so the validate visit that parks a run ends in the extract job, and only that queue
 * says so. (Waiting on the validate queue then would wait for ever.)
 */
export function jobCarrying(stage: StageName, localStages: readonly StageName[]): StageName {
  let carrier = stageNamed(stage);
  while (localStages.includes(carrier.name)) {
    const before = STAGES.find((candidate) => candidate.next === carrier.name);
    if (!before) break;
    carrier = before;
  }
  return carrier.name;
}

interface VettedFigures {
  seed: SeedResult;
  parkedAtStart: Map<string, number>;
  /** Round trips (K and 1 in flight), then decide → execute on seeded runs. */
  loads: LoadRow[];
  review: VettedReview;
  listing: ListingRow[];
  steps: StepCosts[];
  databaseClock: number[];
  /** The loads the bare version repeats. */
  plan: Partial<LoadPlan>;
  decideOnly: DriveInput & { load: 'throughput' };
}

async function measureVettedReview(context: BenchContext, stack: VettedStack): Promise<VettedFigures> {
  const { options } = context;
  const { system, review, meter } = stack;
  const { seed, templateIds } = await seed100k(context, system, review);
  const parkedAtStart = await countParked(system);
  const plan: Partial<LoadPlan> = { requests: options.reviewRequests, inFlight: options.reviewInFlight, latencyRequests: options.latencyRequests, latencyTarget: review.decision };
  const roundTrips = await measureLoads(context, review.roundTrip, meter, plan);
  context.note('review: pending listing');
  const listing = await measureListing(stack.client, system.database.pool, { tenantId: BENCH_TENANT, queries: LISTING_QUERIES, calls: LISTING_CALLS, signal: context.signal });
  context.note(`review: step by step, ${STEP_REQUESTS} requests each`);
  const steps = await measureReviewSteps(
    { ...stack.processes, client: stack.client, pool: system.database.pool, databaseUrl: context.environment.databaseUrl, park: (index) => review.park(index, 'steps') },
    STEP_REQUESTS,
  );
  const databaseClock = await decisionInDatabase(system, review.decidedRuns.get('latency') ?? []);
  // Informational: deciding runs that are already parked (the seed's oldest payload reviews).
  const seeded = await oldestPayloadReviews(system.database.pool, BENCH_TENANT, options.reviewRequests, templateIds);
  const decideOnly = { tag: 'decide', total: seeded.length, inFlight: options.reviewInFlight, load: 'throughput' } as const;
  const decided = await measureOnce(context, review.decideOnly(seeded), meter, decideOnly);
  return { seed, parkedAtStart, loads: [...roundTrips, decided], review, listing, steps, databaseClock, plan, decideOnly };
}

function reviewLines(context: BenchContext, vetted: VettedFigures, bare: { decisionMs: number[] }): string[] {
  const { options } = context;
  const { review, listing } = vetted;
  return [
    ...describeSeed(vetted.seed, vetted.parkedAtStart),
    'API: startApiServer in a child process (as `vetted api`), stage workers in another, the driver apart from both;',
    `  per-key rate limit raised (${API_ENV.VETTED_RATE_LIMIT_PER_MINUTE}/min) so it does not throttle the bench.`,
    ...VETTED_REVIEW_DESCRIPTION,
    ...BARE_REVIEW_DESCRIPTION,
    ...BARE_STAGED_DESCRIPTION,
    'decision → execution started: from just before the decision is sent (HTTP for Vetted, the UPDATE for bare) to',
    "  the driver reading the execute job's `active` event (a worker took it), one clock, pushed events, 1 in flight",
    '  with the previous run finished; the rows above show it as p50/p99.',
    'resume, decide → execute (informational): the same decision and execution on runs parked beforehand (Vetted:',
    `  the seed's oldest payload reviews; bare: rows inserted in one statement), ${options.reviewInFlight} in flight, no warm-up of its own.`,
    'Cost rows count whole round trips, parking included, also for the 1-in-flight rows.',
    '',
    `Where a Vetted round trip's time goes (${options.reviewInFlight} in flight):`,
    ...indent(roundTripSplits(review, vetted.loads)),
    `Step by step (${STEP_REQUESTS} freshly parked runs, one request at a time; per request):`,
    ...indent(formatReviewSteps(vetted.steps)),
    'Around the decision (1 in flight):',
    ...indent(spreadLines([
      { label: 'vetted: POST decision answered', valuesMs: review.decisionMs.get('latency') ?? [] },
      { label: 'vetted: decision sent → execution completed', valuesMs: review.decisionToCompletedMs.get('latency') ?? [] },
      { label: 'vetted, database clock: run.resumed event → ledger row (dry: written by the completing move)', valuesMs: vetted.databaseClock },
      { label: 'bare: UPDATE + add answered', valuesMs: bare.decisionMs },
    ])),
    '',
    `GET /api/reviews/pending, up to ${LISTING_CALLS} calls each, one at a time, tenant ${BENCH_TENANT}:`,
    ...indent(formatTable(['query', 'calls', 'items', 'p50 ms', 'p99 ms'], listing.map((row) => [row.label, String(row.calls), String(row.items), fixed(row.p50, 2), fixed(row.p99, 2)])).split('\n')),
  ];
}

async function seed100k(context: BenchContext, system: System, vetted: VettedReview): Promise<{ seed: SeedResult; templateIds: string[] }> {
  // Two real parked runs (one per bench model) are the templates, and stay parked among the rest.
  const templates = [await vetted.park(0, 'template'), await vetted.park(1, 'template')];
  const count = Math.max(0, context.options.reviewSeed - templates.length);
  context.note(`review: seeding ${count} parked runs`);
  const seed = await seedParkedRuns(system.database.pool, {
    templateRunIds: templates.map((run) => run.id),
    count,
    tenants: [BENCH_TENANT, OTHER_TENANT],
    reviewTtlSeconds: system.config.defaults.reviewTtlSeconds,
  });
  context.note(`review: seeded ${seed.inserted} in ${seed.insertSeconds.toFixed(1)} s, vacuum analyze ${seed.vacuumSeconds.toFixed(1)} s`);
  return { seed, templateIds: templates.map((run) => run.id) };
}

async function countParked(system: System): Promise<Map<string, number>> {
  const { rows } = await system.database.pool.query<{ tenant: string; n: number }>(
    "select tenant_id as tenant, count(*)::int as n from runs where status = 'awaiting_human' group by tenant_id order by tenant_id",
  );
  return new Map(rows.map((row) => [row.tenant, row.n]));
}

function describeSeed(seed: SeedResult, parked: Map<string, number>): string[] {
  const total = [...parked.values()].reduce((sum, n) => sum + n, 0);
  const mix = SEED_CHECKPOINTS.map(({ checkpoint, share }) => `${checkpoint} ${Math.round(share * 100)}%`).join(', ');
  return [
    `Seeded ${seed.inserted} parked runs copied from 2 real ones (INSERT … SELECT generate_series) in ${seed.insertSeconds.toFixed(1)} s,`,
    `  then VACUUM (ANALYZE) runs in ${seed.vacuumSeconds.toFixed(1)} s; not counted in any figure. runs is now ${(seed.tableBytes / 2 ** 20).toFixed(0)} MiB with TOAST and indexes.`,
    `  Checkpoints ${mix}; parked_at spread over 20 h; review_expires_at in the future.`,
    `Awaiting a human when the round trips started: ${total} (${[...parked].map(([tenant, n]) => `${tenant} ${n}`).join(', ')}).`,
  ];
}

/** Per stage of the round trip: the target's splits, and the rest of each run's latency (execution). */
function roundTripSplits(vetted: VettedReview, loads: readonly LoadRow[]): string[] {
  const splits = vetted.splits.get('throughput') ?? [];
  const row = loads.find((load) => load.load === 'throughput');
  const executed = splits.map((split, index) => (row?.latenciesMs[index] ?? Number.NaN) - (split.submit + split.pipeline + split.read + split.decision));
  return spreadLines([
    { label: 'POST /api/runs answered', valuesMs: splits.map((s) => s.submit) },
    { label: 'answered → parked (extract … validate)', valuesMs: splits.map((s) => s.pipeline) },
    { label: 'GET /api/runs/:id (read the review)', valuesMs: splits.map((s) => s.read) },
    { label: 'POST decision answered', valuesMs: splits.map((s) => s.decision) },
    { label: 'decision answered → execution completed', valuesMs: executed.filter(Number.isFinite) },
  ]);
}

/**
 * The decision → execution interval on the database's clock: the run.resumed event is written in the
 * decision's transaction (now() = that transaction's start); the dry provider's ledger row is written by the
 * move that completes the run, so this runs to the execution's end, not its start. It leaves out the HTTP
 * request and the reads before the transaction; a cross-check, not the figure. Empty if the schema moved.
 */
async function decisionInDatabase(system: System, runIds: readonly string[]): Promise<number[]> {
  if (runIds.length === 0) return [];
  try {
    const { rows } = await system.database.pool.query<{ ms: number }>(
      `select extract(epoch from (e.started_at - ev.at)) * 1000 as ms
       from executions e join run_events ev on ev.run_id = e.run_id and ev.type = 'run.resumed'
       where e.run_id = any($1::uuid[])`,
      [[...runIds]],
    );
    return rows.map((row) => Number(row.ms));
  } catch {
    return [];
  }
}

async function measureBare(context: BenchContext, plan: Partial<LoadPlan>, decideOnly: DriveInput & { load: 'throughput' }): Promise<{ loads: LoadRow[]; decisionMs: number[] }> {
  const { environment, options } = context;
  const prefix = environment.prefixFor('review-bare');
  const local = new Cleanup();
  try {
    const worker: WorkerProcess = await startWorkerProcess(
      { kind: 'bare-review', redisUrl: environment.redisUrl, databaseUrl: environment.databaseUrl, prefix, concurrency: { ...environment.concurrency }, poolSize: environment.poolSize },
      options.cpuProfDir,
    );
    local.defer('stop the bare review worker', () => worker.stop());
    const completed = await createCompletionTracker(environment.redisUrl, prefix, BARE_EXECUTE_QUEUE);
    local.defer('close the bare tracker', () => completed.close());
    const bare = await createBareReview(environment.databaseUrl, environment.redisUrl, prefix, environment.poolSize, completed);
    local.defer('close the bare review', () => bare.close());
    const meter = createCostMeter(worker, bare.pool, environment.databaseUrl);
    const loads = await measureLoads(context, bare.roundTrip, meter, { ...plan, latencyTarget: bare.decision });
    loads.push(await measureOnce(context, await bare.decideOnly(decideOnly.total, decideOnly.tag), meter, decideOnly));
    return { loads, decisionMs: bare.decisionMs.get('latency') ?? [] };
  } finally {
    await local.runAll(context.note);
  }
}

function reviewVerdicts(loads: readonly LoadRow[], listing: readonly ListingRow[]): TargetVerdict[] {
  const find = (system: string, load: LoadRow['load']) => loads.find((row) => row.system === system && row.load === load);
  const verdicts: TargetVerdict[] = [];
  const vt = find('vetted review', 'throughput');
  const st = find('bare staged review', 'throughput');
  if (vt && st) {
    const ratio = loadSummary(vt).rate / loadSummary(st).rate;
    verdicts.push({
      name: `review round trips/s, Vetted / bare staged (same 5 hops + CAS, ${vt.inFlight} in flight)`,
      value: ratio,
      shown: `${fixed(ratio, 2)} ×`,
      bound: `≥ ${TARGETS.stagedRoundTripRatio}`,
      pass: ratio >= TARGETS.stagedRoundTripRatio,
    });
    const implied = cpuImpliedRatio(vt, st);
    if (implied !== undefined) verdicts.push({ name: 'review round trips/s vs bare staged, implied by CPU per request', value: implied, shown: `${fixed(implied, 2)} ×`, bound: 'none', pass: undefined });
  }
  const bt = find('bare review', 'throughput');
  if (vt && bt) {
    // The floor of a review with no pipeline at all: one row, one CAS, one job. Informational only.
    const ratio = loadSummary(vt).rate / loadSummary(bt).rate;
    verdicts.push({ name: `review round trips/s, Vetted / bare (1 hop, ${vt.inFlight} in flight)`, value: ratio, shown: `${fixed(ratio, 2)} ×`, bound: 'none', pass: undefined });
  }
  const [vl, bl] = [find('vetted review', 'latency'), find('bare review', 'latency')];
  if (vl) {
    const p99 = loadSummary(vl).p99;
    verdicts.push({
      name: 'decision → execution started p99 (1 in flight)',
      value: p99,
      shown: `${fixed(p99, 2)} ms${bl ? ` (bare ${fixed(loadSummary(bl).p99, 2)})` : ''}`,
      bound: `< ${TARGETS.decisionP99Ms} ms`,
      pass: p99 < TARGETS.decisionP99Ms,
    });
  }
  const [vd, bd] = [find('vetted resume', 'throughput'), find('bare resume', 'throughput')];
  if (vd && bd) {
    const ratio = loadSummary(vd).rate / loadSummary(bd).rate;
    verdicts.push({ name: 'resume (decide → execute, parked beforehand), Vetted / bare', value: ratio, shown: `${fixed(ratio, 2)} ×`, bound: 'none', pass: undefined });
  }
  for (const row of listing) {
    verdicts.push({ name: `pending listing p99, ${row.label}`, value: row.p99, shown: `${fixed(row.p99, 2)} ms`, bound: `< ${TARGETS.listingP99Ms} ms`, pass: row.p99 < TARGETS.listingP99Ms });
  }
  return verdicts;
}

/** The bare staged review (review-bare-staged.ts) at the round trips' loads, in a worker process of its own. */
async function measureBareStaged(context: BenchContext, plan: Partial<LoadPlan>): Promise<LoadRow[]> {
  const { environment, options } = context;
  const prefix = environment.prefixFor('review-staged');
  const local = new Cleanup();
  try {
    const worker = await startWorkerProcess(
      { kind: 'bare-staged-review', redisUrl: environment.redisUrl, databaseUrl: environment.databaseUrl, prefix, concurrency: { ...environment.concurrency }, poolSize: environment.poolSize },
      options.cpuProfDir,
    );
    local.defer('stop the bare staged workers', () => worker.stop());
    const parked = await createCompletionTracker(environment.redisUrl, prefix, STAGED_PARK_QUEUE);
    local.defer('close the bare staged tracker', () => parked.close());
    const staged = await createBareStagedReview(environment.databaseUrl, environment.redisUrl, prefix, environment.poolSize, parked);
    local.defer('close the bare staged review', () => staged.close());
    const meter = createCostMeter(worker, staged.pool, environment.databaseUrl);
    // Round trips at both loads (its 1-in-flight row is a whole round trip, not decision → execution started).
    return await measureLoads(context, staged.roundTrip, meter, { ...plan, latencyTarget: undefined });
  } finally {
    await local.runAll(context.note);
  }
}

function indent(lines: readonly string[]): string[] {
  return lines.map((line) => `  ${line}`);
}

/** A cleanup step that may also run earlier, once. */
function once(step: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= step());
}
