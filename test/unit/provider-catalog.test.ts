/**
 * The extractor, the dry run and the fragment firewall against providers' published documents, as
 * replicate-catalog.test.ts runs them against every public Replicate model: fal endpoint documents, OpenAI's API
 * document (the operations the provider runs) and the shipped examples (Anthropic's Messages operation among
 * them). Every document extracts into a schema AJV compiles, or is refused with SCHEMA_UNSUPPORTED naming the
 * construct; no published example value is reachable in a ModelSchema; a plain request's dry run gives a payload
 * with no published example value in it that the published schema accepts, or parks (no invalid execute); a
 * request that leaves a required input empty parks; and the fragment firewall's three figures hold.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createAdapterRegistry } from '../../src/adapters/registry.ts';
import { loadConfig } from '../../src/config.ts';
import { isVettedError } from '../../src/errors.ts';
import type { FieldSpec, GenerationRequest, ModelSchema } from '../../src/generated/contracts.ts';
import { dryRun } from '../../src/preview/dry-run.ts';
import { createAjv } from '../../src/schema/ajv.ts';
import { CompiledSchemaCache } from '../../src/stages/validator/index.ts';
import { publishedIssues } from '../../src/stages/validator/published-issues.ts';
import { measureFragmentFirewall } from '../support/fragment-measure.ts';
import {
  asCatalogModels,
  declaredStrings,
  extractProviderCatalog,
  publishedExampleStrings,
  quarantinedStrings,
  stringLeaves,
} from '../support/provider-catalog.ts';
import type { ProviderCatalogEntry } from '../support/provider-catalog.ts';

let catalog: readonly ProviderCatalogEntry[];
let extracted: readonly (ProviderCatalogEntry & { result: NonNullable<ProviderCatalogEntry['result']> })[];

beforeAll(() => {
  catalog = extractProviderCatalog();
  extracted = catalog.filter((entry): entry is (typeof extracted)[number] => entry.result !== undefined);
  const refused = new Map<string, number>();
  for (const entry of catalog) {
    if (entry.error === undefined) continue;
    const construct = isVettedError(entry.error) ? String(entry.error.details?.construct ?? entry.error.code) : 'crash';
    refused.set(construct, (refused.get(construct) ?? 0) + 1);
  }
  const byProvider = count(catalog.map((entry) => `${entry.provider}${entry.origin === 'example' ? ' (example)' : ''}`));
  const byConstruct = [...refused].map(([construct, n]) => `${construct}=${n}`).join(', ') || 'none';
  console.log(`provider catalog: ${catalog.length} documents (${byProvider}), ${extracted.length} extracted, refused by construct: ${byConstruct}`);
});

function count(items: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return [...counts].map(([item, n]) => `${item} ${n}`).join(', ');
}

/** The document a model file carries. */
function documentOf(entry: ProviderCatalogEntry): unknown {
  return entry.source.openapi;
}

/** Published example strings worth looking for: not something the schema itself declares (a default, an enum). */
function exampleStringsOf(entry: (typeof extracted)[number], minLength: number): string[] {
  const declared = declaredStrings(documentOf(entry));
  const values = [...publishedExampleStrings(documentOf(entry)), ...quarantinedStrings(entry.result.quarantine)];
  return [...new Set(values.map((value) => value.trim()))].filter((value) => value.length >= minLength && !declared.some((d) => d.includes(value)));
}

const ATTACHMENTS = {
  image: { url: 'https://uploads.acme-app.test/u/8c1f/harbour-at-dawn.png', mimeType: 'image/png', name: 'harbour-at-dawn.png' },
  audio: { url: 'https://uploads.acme-app.test/u/8c1f/interview-take-2.mp3', mimeType: 'audio/mpeg', name: 'interview-take-2.mp3' },
} as const;

/** A request as a person writes it for this kind of model, with a file when the model takes one. */
function plainRequest(schema: ModelSchema): GenerationRequest {
  const fileFields = schema.fields.filter((field) => field.format === 'uri' || field.role.endsWith('_input'));
  const takesAudio = fileFields.some((field) => field.role === 'audio_input');
  const speaks = schema.fields.some((field) => field.name === 'voice');
  const prompt = takesAudio
    ? 'transcribe this interview please'
    : speaks
      ? 'Welcome aboard: the ferry to the harbour leaves at nine.'
      : 'a watercolor painting of a lighthouse at dusk, 16:9';
  const attachment = takesAudio ? ATTACHMENTS.audio : ATTACHMENTS.image;
  return { prompt, ...(fileFields.length > 0 ? { attachments: [attachment] } : {}) };
}

/** What the user wrote, which a payload may carry whatever an example says. */
function userText(request: GenerationRequest): string {
  return [request.prompt ?? '', ...(request.attachments ?? []).flatMap((a) => [a.url, a.name ?? ''])].join(' ');
}

const config = loadConfig({});
const adapters = createAdapterRegistry(config);

async function dry(entry: ProviderCatalogEntry, request: GenerationRequest) {
  return dryRun({ modelSource: entry.source, request, config, adapters, builder: 'heuristic' });
}

describe('providers\' published documents', () => {
  it('are in the catalog: fal endpoints, OpenAI operations and the Anthropic Messages operation', () => {
    const providers = count(catalog.filter((entry) => entry.origin === 'public').map((entry) => entry.provider));
    expect(catalog.filter((entry) => entry.provider === 'fal' && entry.origin === 'public').length, providers).toBeGreaterThanOrEqual(20);
    expect(catalog.filter((entry) => entry.provider === 'openai' && entry.origin === 'public').map((entry) => entry.operation).sort()).toEqual([
      'createChatCompletion',
      'createImage',
      'createImageEdit',
      'createSpeech',
      'createTranscription',
    ]);
    expect(catalog.some((entry) => entry.provider === 'anthropic')).toBe(true);
  });

  it('extract, or are refused with SCHEMA_UNSUPPORTED naming the construct', () => {
    for (const entry of catalog) {
      if (entry.error === undefined) continue;
      expect(isVettedError(entry.error), `${entry.file}: ${String(entry.error)}`).toBe(true);
      if (!isVettedError(entry.error)) continue;
      expect(entry.error.code, `${entry.file}: ${entry.error.message}`).toBe('SCHEMA_UNSUPPORTED');
      const construct = entry.error.details?.construct;
      expect(typeof construct, entry.file).toBe('string');
      expect(entry.error.message, entry.file).toContain(String(construct));
    }
  });

  it('give schemas that compile in the validator dialect, with every kept default valid', () => {
    const ajv = createAjv();
    for (const { file, result } of extracted) {
      const { jsonSchema, fields } = result.modelSchema;
      const validate = ajv.compile(jsonSchema);
      const defaults = Object.fromEntries(fields.filter((f) => f.hasDefault).map((f) => [f.name, f.default]));
      validate(defaults);
      expect((validate.errors ?? []).filter((e) => e.keyword !== 'required'), file).toEqual([]);
    }
  });

  it('keep each published input schema, which compiles for the final guard and accepts the defaults builders place', () => {
    const cache = new CompiledSchemaCache(catalog.length);
    for (const { file, result } of extracted) {
      const { modelSchema } = result;
      expect(modelSchema.publishedSchema, file).toBeDefined();
      const compiled = cache.compiledFor(modelSchema);
      expect(compiled.publishedError, file).toBeUndefined();
      const placed = modelSchema.fields.filter((f) => f.hasDefault && f.unsatisfiable === undefined);
      expect(publishedIssues(compiled, Object.fromEntries(placed.map((f) => [f.name, f.default]))), file).toEqual([]);
    }
  });

  it('keep every published example string out of the ModelSchema unless the schema declares it', () => {
    let looked = 0;
    for (const entry of extracted) {
      const text = JSON.stringify({ ...entry.result.modelSchema, model: null });
      for (const value of exampleStringsOf(entry, 8)) {
        looked += 1;
        expect(text.includes(JSON.stringify(value).slice(1, -1)), `${entry.file} keeps the example "${value}"`).toBe(false);
      }
    }
    expect(looked).toBeGreaterThan(20);
  });
});

describe('a dry run on every extracted document', { timeout: 240_000 }, () => {
  it('gives a plain request a payload with no published example value that the published schema accepts, or parks', async () => {
    const cache = new CompiledSchemaCache(extracted.length);
    const outcomes = { execute: 0, parked: 0, invalidExecutes: [] as string[], leaks: [] as string[] };
    for (const entry of extracted) {
      const request = plainRequest(entry.result.modelSchema);
      const result = await dry(entry, request);
      const payload = (result.candidate?.payload ?? {}) as Record<string, unknown>;
      const written = userText(request);
      const sent = stringLeaves(payload).filter((value) => !written.includes(value));
      for (const example of exampleStringsOf(entry, 2)) {
        const leaked = sent.some((value) => value === example || (example.length >= 8 && value.includes(example)));
        if (leaked) outcomes.leaks.push(`${entry.file}: "${example}"`);
      }
      if (result.decision !== 'execute') {
        outcomes.parked += 1;
        continue;
      }
      outcomes.execute += 1;
      // The published schema whole, `required` included: what the provider's server was declared to accept.
      const validate = cache.compiledFor(entry.result.modelSchema).published;
      if (validate && !validate(payload)) outcomes.invalidExecutes.push(`${entry.file}: ${JSON.stringify(validate.errors)}`);
    }
    console.log(
      `provider catalog dry run, ${extracted.length} documents, heuristic builder: ${outcomes.execute} execute, ${outcomes.parked} park; ` +
        `${outcomes.leaks.length} published example values in payloads; ${outcomes.invalidExecutes.length} invalid executes`,
    );
    expect(outcomes.leaks).toEqual([]);
    expect(outcomes.invalidExecutes).toEqual([]);
    expect(outcomes.execute).toBeGreaterThan(extracted.length / 2);
  });

  it('parks a request that leaves a required input without a value', async () => {
    let checked = 0;
    for (const entry of extracted) {
      const required = entry.result.modelSchema.fields.find((field: FieldSpec) => field.required);
      if (required === undefined) continue;
      checked += 1;
      const request = { ...plainRequest(entry.result.modelSchema), edits: { [required.name]: null } };
      const result = await dry(entry, request);
      expect(result.decision, `${entry.file} without ${required.name}`).toBe('awaiting_human');
    }
    console.log(`provider catalog: a required input edited away parks on all ${checked} documents that have one`);
    expect(checked).toBeGreaterThan(extracted.length / 2);
  });
});

describe('the fragment firewall on every extracted document with an example', () => {
  it('(a) 0 false flags on heuristic payloads, (b) every copied fragment caught, (c) none flagged when the user wrote it', () => {
    const counts = measureFragmentFirewall(asCatalogModels(extracted));
    const caught = counts.copyCases === 0 ? 0 : (100 * counts.copyCaught) / counts.copyCases;
    console.log(
      `provider fragment firewall, ${counts.models} documents with an example: (a) heuristic builder, realistic prompts: ${counts.heuristicFlagged} flagged; ` +
        `(b) a fragment copied into a string field: ${counts.copyCaught}/${counts.copyCases} caught (${caught.toFixed(1)}%); ` +
        `(c) the same when the user wrote it: ${counts.ownFragmentFlagged} flagged`,
    );
    expect(counts.models).toBeGreaterThan(10);
    expect(counts.failures.heuristic).toEqual([]);
    expect(counts.failures.missed).toEqual([]);
    expect(counts.failures.ownFlagged).toEqual([]);
    expect(counts.copyCases).toBeGreaterThan(5);
  });
});
