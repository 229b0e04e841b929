/**
 * Phase `vetted`: Vetted end to end. This process submits with submitRun (as the API would); a worker
 * process runs the five stage workers (startStageWorkers, as `vetted worker` would) with the heuristic
 * builder and the dry provider. A request is done when the `execute` job completes; afterwards every run
 * of the phase must be `completed` in PostgreSQL. measureVetted runs the same for the phases compared
 * with this one (`sdk`: other adapters; `shadow`: shadow mode on).
 */
import { loadConfig } from '../src/config.ts';
import { stageQueueName } from '../src/queue/queues.ts';
import { dryRun } from '../src/preview/dry-run.ts';
import { submitRun } from '../src/intake/submit-run.ts';
import { createSystem, type QueuedSystem as System } from '../src/system.ts';
import type { WorkKind } from '../workers/start-workers.ts';
import { createCostMeter } from './cost-meter.ts';
import { LANGGRAPH_SYSTEM } from './langgraph-peer.ts';
import { measureLoads, type LoadPlan, type LoadTarget } from './load-driver.ts';
import type { BenchContext, Phase } from './phase.ts';
import { fixed, type LoadRow, type TargetVerdict } from './report.ts';
import { BENCH_MODELS, benchRequest, HEURISTIC_DRY, readModelSource, registerBenchModels, type BenchAdapters } from './workload.ts';
import { startWorkerProcess, type WorkerProcess } from './worker-process.ts';

export const VETTED_DESCRIPTION = [
  'vetted: submitRun (request checked, run + run.created event inserted in one statement, extract job added),',
  '        then extract → assemble → build (heuristic) → validate → execute (dry provider). With local stages',
  '        (the default) extract\'s job goes on to assemble, build and validate itself, so a request is two BullMQ',
  '        jobs (extract, execute); "vetted, local stages off" (VETTED_LOCAL_STAGES=none) is one job per stage.',
  '        Either way extract claims the run (UPDATE … RETURNING), later stages start from the row the previous',
  '        move returned (same process) or read it, and each stage commits its move plus an audit event (one',
  '        statement); execute\'s move also records the dry execution in the idempotency ledger (same statement).',
  '        7 statements per request. Requests alternate flux-schnell (text to image) and whisper (audio',
  '        attachment); all must end `completed`.',
];

/** The plain pipeline's two rows: local stages on (the default) and off. */
export const VETTED_SYSTEM = 'vetted';
export const VETTED_QUEUED_SYSTEM = 'vetted, local stages off';

export const vettedPhase: Phase = {
  name: 'vetted',
  summary: 'Vetted through all five stages (heuristic builder, dry provider), local stages on and off, at N in flight and at 1 in flight',
  ratios: [
    { name: 'throughput, Vetted / baseline', system: VETTED_SYSTEM, against: 'baseline', load: 'throughput', metric: 'rate', atLeast: 1 },
    { name: 'throughput, Vetted local stages off / baseline', system: VETTED_QUEUED_SYSTEM, against: 'baseline', load: 'throughput', metric: 'rate', atLeast: 0.6 },
    { name: 'p99 at 1 in flight, Vetted / baseline', system: VETTED_SYSTEM, against: 'baseline', load: 'latency', metric: 'p99', atMost: 2 },
    { name: 'throughput, Vetted / LangGraph (same stages)', system: VETTED_SYSTEM, against: 'peers', againstSystem: LANGGRAPH_SYSTEM, load: 'throughput', metric: 'rate', atLeast: 4 },
    { name: 'throughput, Vetted local stages off / LangGraph', system: VETTED_QUEUED_SYSTEM, against: 'peers', againstSystem: LANGGRAPH_SYSTEM, load: 'throughput', metric: 'rate' },
    { name: 'p99 at 1 in flight, Vetted / LangGraph', system: VETTED_SYSTEM, against: 'peers', againstSystem: LANGGRAPH_SYSTEM, load: 'latency', metric: 'p99' },
  ],
  async run(context) {
    const on = await measureVetted(context, { system: VETTED_SYSTEM, part: 'vetted' });
    const off = await measureVetted(context, { system: VETTED_QUEUED_SYSTEM, part: 'vetted-queued', env: { VETTED_LOCAL_STAGES: 'none' } });
    const loads = [...on.loads, ...off.loads];
    return { loads, section: { title: 'What one request does', lines: VETTED_DESCRIPTION }, verdicts: [...walVerdicts(on.loads, 'local stages on'), ...walVerdicts(off.loads, 'local stages off')] };
  },
};

/** WAL the bench database's records take per request (wal-meter.ts), throughput run. */
export const WAL_BYTES_PER_REQUEST_TARGET = 4096;

function walVerdicts(loads: readonly LoadRow[], which: string): TargetVerdict[] {
  const own = loads.find((row) => row.load === 'throughput')?.costs?.wal?.own;
  if (!own) return [];
  return [
    {
      name: `WAL bytes per request, Vetted ${which} (bench database, throughput run)`,
      value: own.bytes,
      shown: `${fixed(own.bytes, 0)} B (${fixed(own.fpiBytes, 0)} full-page images)`,
      bound: `≤ ${WAL_BYTES_PER_REQUEST_TARGET} B`,
      pass: own.bytes <= WAL_BYTES_PER_REQUEST_TARGET,
    },
  ];
}

/** One way of running Vetted's pipeline under the shared load sequence; `vetted` is the plain one. */
export interface VettedVariant {
  /** The load table's system name ("vetted", "vetted openai+replicate", "vetted shadow 1"). */
  system: string;
  /** This variant's BullMQ prefix part, and its tenants' infix (`bench-<part>-<tag>`). */
  part: string;
  /** What the requests name (default heuristic + dry). */
  adapters?: Readonly<BenchAdapters>;
  /** Environment on top of the bench's, for the worker process and the driver's config alike. */
  env?: Readonly<Record<string, string>>;
  /** What the worker process runs (default the five stages). */
  kinds?: readonly WorkKind[];
  /** Wraps the target (e.g. to settle shadow work after each run); gets the driver's system. */
  decorate?(target: LoadTarget, system: System): LoadTarget;
  /** Runs after the loads while the system is still open; its lines go into the phase's section. */
  after?(system: System): Promise<string[]>;
  /** Worker processes, each with the full per-stage concurrency (default 1): phase `scale` runs 2. */
  processes?: number;
  /** Loads other than the flags' (phase `scale`: throughput only). */
  plan?: Partial<LoadPlan>;
}

/** Registers the models, checks the requests execute, starts the workers and drives the load sequence. */
export async function measureVetted(context: BenchContext, variant: VettedVariant): Promise<{ loads: LoadRow[]; lines: string[] }> {
  const { environment } = context;
  const prefix = environment.prefixFor(variant.part);
  const adapters = variant.adapters ?? HEURISTIC_DRY;
  // The first system on the bench database migrates it (createSystem's default).
  const system = await createSystem(environment.vettedConfig(prefix, variant.env), { poolSize: environment.poolSize });
  try {
    await registerBenchModels(system);
    await checkRequestsExecute(system, adapters);
    const spec = { kind: 'vetted', env: environment.vettedEnv(prefix, variant.env), concurrency: { ...environment.concurrency }, poolSize: environment.poolSize, kinds: variant.kinds } as const;
    const workers: WorkerProcess[] = [];
    try {
      for (let n = 1; n <= (variant.processes ?? 1); n++) workers.push(await startWorkerProcess(spec, context.options.cpuProfDir, n === 1 ? variant.part : `${variant.part}-${n}`));
      const meter = createCostMeter(workers, system.database.pool, environment.databaseUrl);
      const plain = vettedTarget(system, prefix, { system: variant.system, tenantInfix: variant.part, adapters });
      const loads = await measureLoads(context, variant.decorate ? variant.decorate(plain, system) : plain, meter, variant.plan);
      return { loads, lines: (await variant.after?.(system)) ?? [] };
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
    }
  } finally {
    await system.close();
  }
}

/**
 * The tenant a variant's run labelled `tag` belongs to; verify counts runs per tenant. No run tag is a
 * prefix of another (warmup, throughput, idle-warmup, latency), so a tenant prefix picks one run's tenant.
 */
export function benchTenant(infix: string, tag: string): string {
  return `bench-${infix}-${tag}`;
}

export function vettedTarget(system: System, prefix: string, as: { system: string; tenantInfix: string; adapters: Readonly<BenchAdapters> }): LoadTarget {
  const pool = system.database.pool;
  const tenant = (tag: string) => benchTenant(as.tenantInfix, tag);
  return {
    system: as.system,
    prefix,
    lastQueue: stageQueueName('execute'),
    async submit(index, tag) {
      const { run } = await submitRun(system, { tenantId: tenant(tag), request: benchRequest(index, undefined, as.adapters), actor: 'bench' });
      return run.id;
    },
    async verify(tag, expected) {
      const { rows } = await pool.query<{ status: string; n: number }>(
        'select status, count(*)::int as n from runs where tenant_id = $1 group by status order by status',
        [tenant(tag)],
      );
      const completed = rows.find((row) => row.status === 'completed')?.n ?? 0;
      if (completed === expected && rows.length === 1) return;
      const { rows: sample } = await pool.query<{ error: unknown; status: string }>(
        "select status, error from runs where tenant_id = $1 and status <> 'completed' limit 1",
        [tenant(tag)],
      );
      throw new Error(
        `${as.system} ${tag}: expected ${expected} completed runs, found ${rows.map((r) => `${r.n} ${r.status}`).join(', ') || 'none'}` +
          (sample[0] ? `; e.g. ${sample[0].status}: ${JSON.stringify(sample[0].error)}` : ''),
      );
    },
    async describe(runIds) {
      const { rows } = await pool.query<{ status: string; stage: string; n: number }>(
        'select status, stage, count(*)::int as n from runs where id = any($1::uuid[]) group by status, stage',
        [runIds],
      );
      return `Their runs: ${rows.map((r) => `${r.n} ${r.status} at ${r.stage}`).join(', ') || 'none found'}.`;
    },
  };
}

/**
 * The throughput figure only means something if every request executes. A template that parks (a
 * builder or validator change) fails here in milliseconds, with the reason, instead of as a stall later.
 */
export async function checkRequestsExecute(system: System, adapters: Readonly<BenchAdapters> = HEURISTIC_DRY): Promise<void> {
  const config = loadConfig({ VETTED_POLICY: 'auto' });
  for (const [index, model] of BENCH_MODELS.entries()) {
    const request = benchRequest(index, undefined, adapters);
    const result = await dryRun({ modelSource: await readModelSource(model.file), request, builder: adapters.builder, config, adapters: system.adapters });
    if (result.decision !== 'execute') {
      const blocking = result.issues.filter((issue) => issue.severity === 'blocking').map((issue) => `${issue.path} ${issue.code}`);
      throw new Error(`bench request ${index} (${model.ref}, ${adapters.builder} builder) would park, not execute: ${result.review?.reason ?? result.decision} ${blocking.join(', ')}`);
    }
  }
}
