/**
 * What Vetted is asked to do in the bench: two bundled Replicate models and requests that go all the way
 * to execution with the heuristic builder and the dry provider (a text-to-image prompt, and a
 * transcription with an audio attachment), alternating. Each request differs a little (seed, file name)
 * so nothing downstream can answer from a cache keyed on the request.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuilderName, ProviderName } from '../src/config.ts';
import type { GenerationRequest, RunPolicy } from '../src/generated/contracts.ts';
import { SHARED_TENANT } from '../src/catalog/catalog-store.ts';
import { registerModel } from '../src/catalog/model-catalog.ts';
import type { System } from '../src/system.ts';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const BENCH_MODELS = [
  { file: 'examples/models/flux-schnell.model.json', ref: 'black-forest-labs/flux-schnell' },
  { file: 'examples/models/whisper.version.json', ref: 'openai/whisper' },
] as const;

export async function readModelSource(file: string): Promise<unknown> {
  return JSON.parse(await readFile(path.join(REPO_ROOT, file), 'utf8')) as unknown;
}

/** Registers the bench models for every tenant (the phases label their runs with per-phase tenant ids). */
export async function registerBenchModels(system: System): Promise<void> {
  for (const model of BENCH_MODELS) {
    await registerModel(system, { tenantId: SHARED_TENANT, source: await readModelSource(model.file), ref: model.ref });
  }
}

/** The builder and provider a bench request names. */
export interface BenchAdapters {
  builder: BuilderName;
  provider: ProviderName;
}

/** What the `vetted` phase (and every phase compared with it) uses: no network, no SDK. */
export const HEURISTIC_DRY: Readonly<BenchAdapters> = { builder: 'heuristic', provider: 'dry' };

export function benchRequest(index: number, policy?: RunPolicy, adapters: Readonly<BenchAdapters> = HEURISTIC_DRY): GenerationRequest {
  const common = { builder: adapters.builder, provider: adapters.provider, ...(policy ? { policy } : {}) } as const;
  if (index % 2 === 0) {
    return { ...common, model: 'black-forest-labs/flux-schnell', prompt: `a watercolor lighthouse at dawn, aspect ratio 16:9, 2 images, seed=${1000 + index}` };
  }
  return {
    ...common,
    model: 'openai/whisper',
    prompt: 'transcribe this interview',
    attachments: [{ url: `https://example.com/audio/interview-${index}.wav`, mimeType: 'audio/wav', name: `interview-${index}.wav` }],
  };
}
