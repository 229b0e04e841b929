/**
 * Provider model files over published documents: the public copies in test/fixtures/provider-catalog/ (fal
 * endpoint documents, OpenAI's API document; see the README there for where each came from) and the shipped
 * examples in examples/providers/. Each is extracted once per test process, as the Replicate catalog is.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { ExampleQuarantine } from '../../src/stages/example-quarantine.ts';
import { extractModelSchema } from '../../src/stages/schema-extractor/index.ts';
import type { ExtractionResult } from '../../src/stages/schema-extractor/index.ts';
import type { ExtractedCatalogModel } from './replicate-catalog.ts';

const FOLDERS = {
  public: new URL('../fixtures/provider-catalog/', import.meta.url),
  example: new URL('../../examples/providers/', import.meta.url),
} as const;

/** One provider model file after extraction: its result, or the error the extractor threw. */
export interface ProviderCatalogEntry {
  /** File name, e.g. `fal-recraft-v3.provider.json`. */
  file: string;
  /** A public copy of a published document, or one of the shipped examples. */
  origin: keyof typeof FOLDERS;
  provider: string;
  /** The endpoint or operation the file names. */
  operation: string;
  source: Record<string, unknown>;
  result?: ExtractionResult;
  error?: unknown;
}

let extracted: readonly ProviderCatalogEntry[] | undefined;

/** Every provider model file, extracted once per test process (results shared, do not mutate). */
export function extractProviderCatalog(): readonly ProviderCatalogEntry[] {
  extracted ??= Object.entries(FOLDERS).flatMap(([origin, folder]) =>
    readdirSync(folder)
      .filter((file) => file.endsWith('.provider.json'))
      .sort()
      .map((file) => extractOne(file, origin as ProviderCatalogEntry['origin'], JSON.parse(readFileSync(new URL(file, folder), 'utf8')) as Record<string, unknown>)),
  );
  return extracted;
}

function extractOne(file: string, origin: ProviderCatalogEntry['origin'], source: Record<string, unknown>): ProviderCatalogEntry {
  const entry = { file, origin, provider: String(source.provider), operation: String(source.endpoint ?? source.operation), source };
  try {
    return { ...entry, result: extractModelSchema(source) };
  } catch (error) {
    return { ...entry, error };
  }
}

/**
 * The entries in the shape the fragment firewall measure reads (test/support/fragment-measure.ts): a provider
 * document publishes no example request, so its "default example" is the one its inputs' examples assemble.
 */
export function asCatalogModels(entries: readonly ProviderCatalogEntry[]): ExtractedCatalogModel[] {
  return entries.flatMap((entry) => {
    if (entry.result === undefined) return [];
    const name = entry.result.modelSchema.model ?? `${entry.provider}/${entry.operation}`;
    const [owner = entry.provider, ...rest] = name.split('/');
    const input = { ...entry.result.quarantine.exampleInput() };
    const model = { owner, name: rest.join('/'), latest_version: null, default_example: { input } };
    return [{ model, name, result: entry.result, ms: 0 }];
  });
}

/** The values a document publishes as `example` / `examples` anywhere in it, string leaves only. */
export function publishedExampleStrings(document: unknown, out: string[] = []): string[] {
  if (Array.isArray(document)) for (const item of document) publishedExampleStrings(item, out);
  else if (document !== null && typeof document === 'object') {
    for (const [key, value] of Object.entries(document)) {
      if (key === 'example' || key === 'examples') stringLeaves(value, out);
      else publishedExampleStrings(value, out);
    }
  }
  return out;
}

/** Strings under `default` / `enum` anywhere in a document: what the schema itself declares. */
export function declaredStrings(document: unknown, out: string[] = []): string[] {
  if (Array.isArray(document)) for (const item of document) declaredStrings(item, out);
  else if (document !== null && typeof document === 'object') {
    for (const [key, value] of Object.entries(document)) {
      if (key === 'default' || key === 'enum') stringLeaves(value, out);
      else declaredStrings(value, out);
    }
  }
  return out;
}

export function stringLeaves(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) stringLeaves(item, out);
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) stringLeaves(item, out);
  return out;
}

/** The quarantine's example values that are strings. */
export function quarantinedStrings(quarantine: ExampleQuarantine): string[] {
  return quarantine.entries().flatMap((entry) => (typeof entry.value === 'string' ? [entry.value] : []));
}
