/**
 * What reading a request costs the heuristic builder, in CPU time (process.cpuUsage, user + system), so a busy
 * machine slows the figure less than it slows wall time: the bench's own requests (bench/workload.ts) and every
 * line of the placement corpus, each built by `buildHeuristicPayload` from a bundle and schema prepared once.
 * The builds alternate between the builders measured, round by round, and each figure is the median round.
 *
 * Every builder's candidates are also hashed, build by build: two builders that place every request the same
 * way print the same digest, and the lines where they differ are named.
 */
import { createHash } from 'node:crypto';
import type { CandidatePayload, GenerationRequest, ModelSchema, RequestBundle } from '../../src/generated/contracts.ts';
import type { BuilderInput } from '../../src/ports.ts';
import { assembleContext } from '../../src/stages/context-assembler.ts';
import { extractModelSchema } from '../../src/stages/schema-extractor/index.ts';
import { catalogByName } from '../placement/catalog.ts';
import { loadCorpus } from '../placement/corpus.ts';
import { BENCH_MODELS, benchRequest, readModelSource } from '../workload.ts';

/** One build to measure: a name for reports, and what the builder is given. */
export interface ReadingCase {
  id: string;
  input: BuilderInput;
  /** The same build with no words to read (prompt and turns blank): what the builder costs besides reading. */
  unread: BuilderInput;
}

/** The two mixes measured: the bench's requests, and the placement corpus (nine languages, every kind of phrase). */
export interface ReadingWorkload {
  bench: ReadingCase[];
  corpus: ReadingCase[];
}

export type BuildFunction = (input: BuilderInput) => CandidatePayload;

/** A builder under measurement. */
export interface MeasuredBuilder {
  name: string;
  build: BuildFunction;
  /** Given each case's `unread` input: the baseline with reading left out (its candidates are not compared). */
  unread?: boolean;
}

/** Large enough that one request's size does not decide the figure: the bench's two requests, alternating. */
const BENCH_BUILDS = 400;
const MAX_ATTACHMENT_BYTES = 50 * 1024 * 1024;

/** Prepares every case once: schemas extracted, requests assembled, so only the build is measured. */
export async function loadWorkload(): Promise<ReadingWorkload> {
  const schemas = new Map<string, ModelSchema>();
  for (const model of BENCH_MODELS) schemas.set(model.ref, extractModelSchema(await readModelSource(model.file), { model: model.ref }).modelSchema);
  const bench: ReadingCase[] = [];
  for (let index = 0; index < BENCH_BUILDS; index += 1) {
    const request = benchRequest(index);
    const schema = schemas.get(request.model ?? '');
    if (!schema) throw new Error(`bench request ${index} names ${String(request.model)}, which the bench does not register`);
    bench.push(readingCase(`bench-${index}`, assemble(request), schema));
  }
  const catalog = catalogByName();
  const corpusSchemas = new Map<string, ModelSchema | null>();
  const corpus: ReadingCase[] = [];
  for (const line of loadCorpus()) {
    if (!corpusSchemas.has(line.model)) {
      const source = catalog.get(line.model);
      corpusSchemas.set(line.model, source === undefined ? null : tryExtract(source));
    }
    const schema = corpusSchemas.get(line.model);
    const bundle = schema ? tryAssemble(line.request as unknown as GenerationRequest) : null;
    if (schema && bundle) corpus.push(readingCase(line.id, bundle, schema));
  }
  return { bench, corpus };
}

function readingCase(id: string, bundle: RequestBundle, schema: ModelSchema): ReadingCase {
  return { id, input: { bundle, schema }, unread: { bundle: { ...bundle, prompt: '', conversation: [] }, schema } };
}

function assemble(request: GenerationRequest): RequestBundle {
  return assembleContext(request, { maxAttachmentBytes: MAX_ATTACHMENT_BYTES });
}

/** The corpus also holds requests intake refuses (they score as refused); they build nothing, so they are left out. */
function tryAssemble(request: GenerationRequest): RequestBundle | null {
  try {
    return assemble(request);
  } catch {
    return null;
  }
}

function tryExtract(source: unknown): ModelSchema | null {
  try {
    return extractModelSchema(source).modelSchema;
  } catch {
    return null;
  }
}

/** One builder's figures for one mix. */
export interface MixFigure {
  builder: string;
  mix: keyof ReadingWorkload;
  builds: number;
  /** CPU microseconds per build: the median round's, and each round's. */
  cpuUs: number;
  rounds: number[];
  /** Wall microseconds per build, median round (noisier than CPU on a shared machine). */
  wallUs: number;
}

export interface ReadingMeasurement {
  figures: MixFigure[];
  /** Per builder, a digest of every candidate it built, and the case ids where it differs from the first builder. */
  digests: { builder: string; digest: string; differing: string[] }[];
}

/**
 * Builds every case of each mix with each builder, `rounds` times after one warm-up pass, alternating which
 * builder goes first from round to round so a load that drifts during the run falls on both alike.
 */
export function measureReading(workload: ReadingWorkload, builders: readonly MeasuredBuilder[], rounds: number): ReadingMeasurement {
  const compared = builders.filter((builder) => builder.unread !== true);
  const digests = compared.map((builder) => ({ builder: builder.name, ...candidateDigest(builder.build, [...workload.bench.slice(0, 2), ...workload.corpus]) }));
  const first = digests[0];
  const figures: MixFigure[] = [];
  for (const mix of ['bench', 'corpus'] as const) {
    const cases = workload[mix];
    if (cases.length === 0) continue;
    for (const builder of builders) buildAll(builder, cases);
    const cpu = builders.map(() => [] as number[]);
    const wall = builders.map(() => [] as number[]);
    for (let round = 0; round < rounds; round += 1) {
      const order = builders.map((_, index) => index);
      if (round % 2 === 1) order.reverse();
      for (const index of order) {
        const builder = builders[index] as MeasuredBuilder;
        const cpuBefore = process.cpuUsage();
        const wallBefore = performance.now();
        buildAll(builder, cases);
        const used = process.cpuUsage(cpuBefore);
        (wall[index] as number[]).push(((performance.now() - wallBefore) * 1000) / cases.length);
        (cpu[index] as number[]).push((used.user + used.system) / cases.length);
      }
    }
    builders.forEach((builder, index) => {
      figures.push({ builder: builder.name, mix, builds: cases.length, cpuUs: median(cpu[index] as number[]), rounds: cpu[index] as number[], wallUs: median(wall[index] as number[]) });
    });
  }
  return {
    figures,
    digests: digests.map(({ builder, digest, hashes }) => ({
      builder,
      digest,
      differing: first ? [...hashes].filter(([id, hash]) => first.hashes.get(id) !== hash).map(([id]) => id) : [],
    })),
  };
}

function buildAll(builder: MeasuredBuilder, cases: readonly ReadingCase[]): void {
  const { build } = builder;
  if (builder.unread === true) for (const { unread } of cases) build(unread);
  else for (const { input } of cases) build(input);
}

/** A hash of every candidate, and each case's own, so two builders can be compared build by build. */
function candidateDigest(build: BuildFunction, cases: readonly ReadingCase[]): { digest: string; hashes: Map<string, string> } {
  const whole = createHash('sha256');
  const hashes = new Map<string, string>();
  for (const { id, input } of cases) {
    let text: string;
    try {
      text = JSON.stringify(build(input));
    } catch (error) {
      text = `error: ${error instanceof Error ? error.message : String(error)}`;
    }
    const hash = createHash('sha256').update(text).digest('hex');
    hashes.set(id, hash);
    whole.update(`${id}\u0000${hash}\n`);
  }
  return { digest: whole.digest('hex').slice(0, 16), hashes };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The report's lines: µs per build by mix and builder, each builder's ratio to the first, and the digests. */
export function formatReading(measurement: ReadingMeasurement): string[] {
  const lines = ['| mix | builds | builder | CPU µs per build (median) | rounds | wall µs per build | CPU ratio to the first |', '|---|---|---|---|---|---|---|'];
  for (const figure of measurement.figures) {
    const base = measurement.figures.find((other) => other.mix === figure.mix);
    const ratio = base && base.cpuUs > 0 ? (figure.cpuUs / base.cpuUs).toFixed(3) : '—';
    const rounds = figure.rounds.map((value) => value.toFixed(0)).join(', ');
    lines.push(`| ${figure.mix} | ${figure.builds} | ${figure.builder} | ${figure.cpuUs.toFixed(1)} | ${rounds} | ${figure.wallUs.toFixed(1)} | ${ratio} |`);
  }
  lines.push('');
  for (const { builder, digest, differing } of measurement.digests) {
    const same = differing.length === 0 ? 'every candidate the same as the first builder' : `${differing.length} candidates differ: ${differing.slice(0, 12).join(', ')}`;
    lines.push(`candidates of ${builder}: ${digest}${measurement.digests.length > 1 ? ` (${same})` : ''}`);
  }
  return lines;
}
