/**
 * Phase `micro`: what single steps cost in-process, in microseconds, with no queue in the way.
 * - `models.getSchema` on a key already in the in-memory cache: what extract/build/validate pay per run
 *   for the schema once a worker has seen the model;
 * - `extractAndStore` of a source already cached: what a run with an inline `modelSource` pays instead
 *   (the content hash that keys the cache, then the same lookup);
 * - `extractModelSchema` on the real model files: what that cache saves;
 * - `validatePayload` on a payload the heuristic builder built (and, for scale, the assembler and the
 *   builder themselves).
 * Each operation is repeated in rounds of ~100 ms after a warm-up (JIT, AJV compile, caches); the table
 * gives the median round's mean and the fastest round's mean.
 * - and the `vetted` command's start-up, compiled against tsx: `--help` and a failing command (cli-startup.ts).
 */
import { assembleContext } from '../src/stages/context-assembler.ts';
import { extractModelSchema, extractionCacheKey } from '../src/stages/schema-extractor/index.ts';
import { validatePayload } from '../src/stages/validator/index.ts';
import { extractAndStore } from '../src/catalog/model-catalog.ts';
import { createSystem, type System } from '../src/system.ts';
import { measureCliStartup } from './cli-startup.ts';
import type { Phase } from './phase.ts';
import type { MicroRow } from './report.ts';
import { BENCH_MODELS, benchRequest, readModelSource, registerBenchModels } from './workload.ts';

const ROUNDS = 7;
const ROUND_MS = 100;
const WARMUP_MS = 200;

export const microPhase: Phase = {
  name: 'micro',
  summary: 'In-process costs: cached models.getSchema, extractModelSchema, validatePayload (µs per call); CLI start-up, compiled vs tsx',
  async run(context) {
    const system = await createSystem(context.environment.vettedConfig(context.environment.prefixFor('micro')), { poolSize: 2 });
    try {
      await registerBenchModels(system);
      const rows: MicroRow[] = [];
      for (const [index, model] of BENCH_MODELS.entries()) rows.push(...(await measureModel(system, model, index)));
      return { micro: rows, ...measureCliStartup(context.note) };
    } finally {
      await system.close();
    }
  },
};

async function measureModel(system: System, model: (typeof BENCH_MODELS)[number], index: number): Promise<MicroRow[]> {
  const source = await readModelSource(model.file);
  const schemaKey = extractionCacheKey(source);
  const schema = await system.models.getSchema(schemaKey);
  if (!schema) throw new Error(`${model.ref}: schema ${schemaKey} missing after registration`);
  const quarantine = await system.models.getQuarantine(schemaKey);
  const request = benchRequest(index);
  const assembleOptions = { maxAttachmentBytes: system.config.limits.maxAttachmentBytes };
  const bundle = assembleContext(request, assembleOptions);
  const builder = system.adapters.builder('heuristic');
  const candidate = await builder.build({ bundle, schema });
  const { publishedSchema: _published, ...unguarded } = schema;
  const before = { ...unguarded, schemaHash: `${schema.schemaHash}:before` };
  const withoutFragments = quarantine.withFragments([]);
  return [
    await measureAsync(`models.getSchema, cached (${model.ref})`, () => system.models.getSchema(schemaKey)),
    await measureAsync(`extractAndStore, cached, inline source (${model.ref})`, () => extractAndStore(system, source)),
    measureSync(`extractModelSchema (${model.ref})`, () => extractModelSchema(source)),
    // The same call as it cost without the example fragments and the published-schema guard, measured in the
    // same run so the two figures compare: the fragment firewall and the guard may cost at most 2×.
    measureSync(`validatePayload, before fragments and published guard (${model.ref})`, () => validatePayload({ candidate, schema: before, bundle, quarantine: withoutFragments })),
    measureSync(`validatePayload (${model.ref})`, () => validatePayload({ candidate, schema, bundle, quarantine })),
    measureSync(`assembleContext (${model.ref})`, () => assembleContext(request, assembleOptions)),
    await measureAsync(`heuristic build (${model.ref})`, () => builder.build({ bundle, schema })),
  ];
}

// Results go here so the optimiser cannot drop the calls being timed.
let _sink: unknown;

function measureSync(operation: string, op: () => unknown): MicroRow {
  const perRound = calibrate(() => {
    _sink = op();
  });
  const means: number[] = [];
  let iterations = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    const started = performance.now();
    for (let i = 0; i < perRound; i += 1) _sink = op();
    means.push(((performance.now() - started) * 1000) / perRound);
    iterations += perRound;
  }
  return summarise(operation, iterations, means);
}

async function measureAsync(operation: string, op: () => Promise<unknown>): Promise<MicroRow> {
  // Warm-up and calibration as in measureSync, awaiting each call.
  let calls = 0;
  const warmupStarted = performance.now();
  while (performance.now() - warmupStarted < WARMUP_MS) {
    _sink = await op();
    calls += 1;
  }
  const perRound = Math.max(1, Math.round((calls * ROUND_MS) / WARMUP_MS));
  const means: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const started = performance.now();
    for (let i = 0; i < perRound; i += 1) _sink = await op();
    means.push(((performance.now() - started) * 1000) / perRound);
  }
  return summarise(operation, perRound * ROUNDS, means);
}

/** Warm-up: runs the operation for WARMUP_MS and returns how many calls fit in one round of ROUND_MS. */
function calibrate(call: () => void): number {
  let calls = 0;
  const started = performance.now();
  while (performance.now() - started < WARMUP_MS) {
    call();
    calls += 1;
  }
  return Math.max(1, Math.round((calls * ROUND_MS) / WARMUP_MS));
}

function summarise(operation: string, iterations: number, meansUs: number[]): MicroRow {
  const sorted = [...meansUs].sort((a, b) => a - b);
  return { operation, iterations, medianUs: sorted[Math.floor(sorted.length / 2)] ?? Number.NaN, bestUs: sorted[0] ?? Number.NaN };
}
