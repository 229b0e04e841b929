/**
 * The extractor against every public Replicate model: each one either extracts into a schema AJV compiles
 * (with every kept default valid), or is refused with SCHEMA_UNSUPPORTED naming the construct. Nothing
 * else: no crash, no MODEL_SOURCE_INVALID, no example string in the ModelSchema. The published input schema
 * kept for the final guard compiles too, and the fragment firewall is measured on every model with an example
 * (the three figures the README quotes).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { isVettedError } from '../../src/errors.ts';
import { createAjv } from '../../src/schema/ajv.ts';
import { extractModelSchema } from '../../src/stages/schema-extractor/index.ts';
import { CompiledSchemaCache } from '../../src/stages/validator/index.ts';
import { publishedIssues } from '../../src/stages/validator/published-issues.ts';
import { measureFragmentFirewall } from '../support/fragment-measure.ts';
import { extractReplicateCatalog } from '../support/replicate-catalog.ts';
import type { ExtractedCatalogModel } from '../support/replicate-catalog.ts';

let catalog: readonly ExtractedCatalogModel[];

beforeAll(() => {
  catalog = extractReplicateCatalog();
  const refused = new Map<string, number>();
  for (const entry of catalog) {
    if (entry.error === undefined) continue;
    const construct = isVettedError(entry.error) ? String(entry.error.details?.construct ?? entry.error.code) : 'crash';
    refused.set(construct, (refused.get(construct) ?? 0) + 1);
  }
  const byConstruct = [...refused].map(([construct, count]) => `${construct}=${count}`).join(', ') || 'none';
  const extractedCount = catalog.filter((entry) => entry.result !== undefined).length;
  console.log(`replicate catalog: ${catalog.length} models, ${extractedCount} extracted, refused by construct: ${byConstruct}`);
}, 240_000);

/** String leaves of a JSON value. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) strings(item, out);
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) strings(item, out);
  return out;
}

/** Strings under `default` / `enum` anywhere in the source document: what the schema itself declares. */
function declaredStrings(document: unknown, out: string[] = []): string[] {
  if (Array.isArray(document)) for (const item of document) declaredStrings(item, out);
  else if (document !== null && typeof document === 'object') {
    for (const [key, value] of Object.entries(document)) {
      if (key === 'default' || key === 'enum') strings(value, out);
      else declaredStrings(value, out);
    }
  }
  return out;
}

// Each test walks 3,000+ models; on two cores shared with PostgreSQL, Redis and the other fork a pass has taken
// over a minute under load, so these get three (the unit default is one).
describe('every public Replicate model', { timeout: 480_000 }, () => {
  it('is in the catalog (the dependency is installed and complete)', () => {
    expect(catalog.length).toBeGreaterThan(3000);
  });

  it('extracts, or is refused with SCHEMA_UNSUPPORTED naming the construct', () => {
    for (const entry of catalog) {
      if (entry.error === undefined) continue;
      expect(isVettedError(entry.error), `${entry.name}: ${String(entry.error)}`).toBe(true);
      if (!isVettedError(entry.error)) continue;
      expect(entry.error.code, entry.name).toBe('SCHEMA_UNSUPPORTED');
      const construct = entry.error.details?.construct;
      expect(typeof construct, entry.name).toBe('string');
      expect(entry.error.message, entry.name).toContain(String(construct));
    }
  });

  it('gives schemas that compile in the validator dialect, with every kept default valid', () => {
    const ajv = createAjv();
    for (const { name, result } of catalog) {
      if (result === undefined) continue;
      const { jsonSchema, fields } = result.modelSchema;
      let validate;
      try {
        validate = ajv.compile(jsonSchema);
      } catch (error) {
        expect.fail(`${name}: ${(error as Error).message}`);
      }
      // All defaults in one payload: the only acceptable complaints are required fields that have none.
      const defaults = Object.fromEntries(fields.filter((f) => f.hasDefault).map((f) => [f.name, f.default]));
      validate(defaults);
      const problems = (validate.errors ?? []).filter((e) => e.keyword !== 'required');
      expect(problems, name).toEqual([]);
    }
  }, 480_000);

  it('keeps each published input schema, which compiles for the final guard and accepts the defaults builders place', () => {
    const cache = new CompiledSchemaCache(catalog.length);
    const unsatisfiable: string[] = [];
    for (const { name, result } of catalog) {
      if (result === undefined) continue;
      const { modelSchema } = result;
      expect(modelSchema.publishedSchema, name).toBeDefined();
      const compiled = cache.compiledFor(modelSchema);
      expect(compiled.publishedError, name).toBeUndefined();
      const placed = modelSchema.fields.filter((f) => f.hasDefault && f.unsatisfiable === undefined);
      expect(publishedIssues(compiled, Object.fromEntries(placed.map((f) => [f.name, f.default]))), name).toEqual([]);
      for (const field of modelSchema.fields) if (field.unsatisfiable !== undefined) unsatisfiable.push(`${name}.${field.name}`);
    }
    // The contradictions in the catalog: an enum whose members are strings under type integer, number or boolean.
    expect(unsatisfiable).toContain('mistake0316/style-transfer-clip.resize_flag');
    expect(unsatisfiable).toContain('laion-ai/laionide-v2.side_x');
    expect(unsatisfiable).toHaveLength(10);
  }, 480_000);

  it('keeps example strings (8+ characters) out of the ModelSchema unless the schema declares them', () => {
    for (const { name, model, result } of catalog) {
      if (result === undefined) continue;
      // A value inside a declared default or enum member (the example prompt is the start of the default
      // prompt) is schema content: it would be there without the example.
      const declared = declaredStrings(model.latest_version?.openapi_schema);
      // The model's own name is identity, not example content ("pistachio" in autumnlydon/pistachio-1).
      const text = JSON.stringify({ ...result.modelSchema, model: null });
      for (const value of strings(model.default_example?.input)) {
        if (value.length < 8 || declared.some((d) => d.includes(value))) continue;
        expect(text.includes(JSON.stringify(value).slice(1, -1)), `${name} leaks an example value`).toBe(false);
      }
    }
  });

  it('also extracts from each default example alone (tool config shape) without keeping a value', () => {
    for (const { name, model } of catalog) {
      const example = model.default_example?.input;
      if (example === undefined) continue;
      if (Object.keys(example).length === 0) {
        // Nothing to infer from (two models take no input): refused, naming the field.
        expect(() => extractModelSchema({ model: name, example_input: example }), name).toThrow(/example_input is empty/);
        continue;
      }
      const { modelSchema } = extractModelSchema({ model: name, example_input: example });
      const text = JSON.stringify(modelSchema.jsonSchema);
      const fieldNames = new Set(Object.keys(example));
      for (const value of strings(example)) {
        if (value.length < 8 || fieldNames.has(value)) continue;
        expect(text.includes(JSON.stringify(value).slice(1, -1)), `${name} keeps an example value`).toBe(false);
      }
    }
  }, 30_000);
});

describe('the fragment firewall on every public model with an example', () => {
  it('(a) 0 false flags on heuristic payloads, (b) every copied fragment caught, (c) none flagged when the user wrote it', () => {
    const cpuBefore = process.cpuUsage();
    const counts = measureFragmentFirewall(catalog);
    const cpu = process.cpuUsage(cpuBefore);
    const caught = counts.copyCases === 0 ? 0 : (100 * counts.copyCaught) / counts.copyCases;
    console.log(
      `fragment firewall, ${counts.models} models with an example: (a) heuristic builder, realistic prompts: ${counts.heuristicFlagged} flagged; ` +
        `(b) a fragment copied into a string field: ${counts.copyCaught}/${counts.copyCases} caught (${caught.toFixed(1)}%); ` +
        `(c) the same when the user wrote it: ${counts.ownFragmentFlagged} flagged ` +
        `(${((cpu.user + cpu.system) / 1e6).toFixed(1)} s of CPU for ${counts.models * 2} builds and ${counts.models + counts.copyCases * 2} validations)`,
    );
    expect(counts.models).toBeGreaterThan(3000);
    expect(counts.failures.heuristic).toEqual([]);
    expect(counts.failures.missed).toEqual([]);
    expect(counts.failures.ownFlagged).toEqual([]);
    // Most models give something to copy (an example of common words only, or of no strings, gives nothing).
    expect(counts.copyCases).toBeGreaterThan(counts.models * 0.7);
  }, 480_000);
});
