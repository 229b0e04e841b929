/**
 * The public Replicate catalog (the `all-the-public-replicate-models` dev dependency), loaded once per test
 * process. It is 63 MB of JSON, so every catalog test shares this one parse (and one extraction pass).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ModelSchema } from '../../src/generated/contracts.ts';
import { ExampleQuarantine } from '../../src/stages/example-quarantine.ts';
import { extractModelSchema } from '../../src/stages/schema-extractor/index.ts';
import type { ExtractionResult } from '../../src/stages/schema-extractor/index.ts';

/** The fields of a catalog entry the tests use; the rest is left as it came. */
export interface CatalogModel {
  owner: string;
  name: string;
  latest_version: { id: string; openapi_schema: Record<string, unknown> } | null;
  default_example: { input?: Record<string, unknown> } | null;
  [key: string]: unknown;
}

let cached: readonly CatalogModel[] | undefined;

/** Every public model, parsed once and frozen (shared between tests, so nobody may mutate it). */
export function loadReplicateCatalog(): readonly CatalogModel[] {
  if (cached === undefined) {
    // Read the JSON beside the package entry: the package exports only its entry, which is untyped and loads
    // with top-level await, and a synchronous loader is simpler for tests to share.
    const entry = createRequire(import.meta.url).resolve('all-the-public-replicate-models');
    const path = join(dirname(entry), 'models.json');
    cached = Object.freeze(JSON.parse(readFileSync(path, 'utf8')) as CatalogModel[]);
  }
  return cached;
}

/** `owner/name` of a catalog entry. */
export function catalogModelName(model: Pick<CatalogModel, 'owner' | 'name'>): string {
  return `${model.owner}/${model.name}`;
}

/** One catalog model after extraction: either its result or the error the extractor threw. */
export interface ExtractedCatalogModel {
  model: CatalogModel;
  name: string;
  result?: ExtractionResult;
  error?: unknown;
  /** Milliseconds the extraction took. */
  ms: number;
}

let extracted: readonly ExtractedCatalogModel[] | undefined;

/** Every catalog model run through extractModelSchema once per test process (results shared, do not mutate). */
export function extractReplicateCatalog(): readonly ExtractedCatalogModel[] {
  extracted ??= loadReplicateCatalog().map((model) => {
    const started = performance.now();
    try {
      const result = extractModelSchema(model);
      return { model, name: catalogModelName(model), result, ms: performance.now() - started };
    } catch (error) {
      return { model, name: catalogModelName(model), error, ms: performance.now() - started };
    }
  });
  return extracted;
}

/**
 * Fills `schemas` and `quarantines` with the named catalog models (key → `owner/name`): each one's extracted
 * schema, and its own example quarantined as in production, so a value read from the user is not taken for a leak.
 * For tests that read requests against a few real models; throws naming a model the catalog lacks.
 */
export function loadCatalogModels<Key extends string>(models: Record<Key, string>, schemas: Map<Key, ModelSchema>, quarantines: Map<Key, ExampleQuarantine>): void {
  const catalog = extractReplicateCatalog();
  for (const [key, name] of Object.entries(models) as [Key, string][]) {
    const entry = catalog.find((candidate) => candidate.name === name);
    const schema = entry?.result?.modelSchema;
    if (!entry || !schema) throw new Error(`${name} is not in the catalog`);
    schemas.set(key, schema);
    quarantines.set(key, ExampleQuarantine.fromExamples(entry.model.default_example?.input ?? {}));
  }
}
