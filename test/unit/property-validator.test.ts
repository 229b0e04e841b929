/**
 * Properties of the Validator (validatePayload) on arbitrary candidates against extracted schemas: it answers
 * a list of contract-valid ValidationIssues, sorted and without duplicates, the same list every time, or a
 * typed SCHEMA_UNSUPPORTED; never a crash. And it never waves through a payload field the schema does not
 * name or a required field that is missing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isVettedError } from '../../src/errors.ts';
import type { CandidatePayload, FieldProvenance, RequestBundle, ValidationIssue } from '../../src/generated/contracts.ts';
import { assertContract } from '../../src/schema/contracts.ts';
import { escapePointer, ExampleQuarantine } from '../../src/stages/example-quarantine.ts';
import { extractModelSchema, type ExtractionResult } from '../../src/stages/schema-extractor/index.ts';
import { CompiledSchemaCache, compareIssues, validatePayload } from '../../src/stages/validator/index.ts';
import { EDGE_NUMBERS, INJECTION_STRINGS, jsonArb, keyArb, NAN_LIKE_STRINGS, numberArb, propertyParams, replicateModelArb, textArb } from '../support/hostile.ts';

const EXAMPLES_DIR = new URL('../../examples/models/', import.meta.url);
const cache = new CompiledSchemaCache(50);

/** The sample models in examples/, extracted once: real schemas beside the generated ones. */
const sampleModels: ExtractionResult[] = readdirSync(EXAMPLES_DIR)
  .filter((file) => file.endsWith('.json'))
  .map((file) => extractModelSchema(JSON.parse(readFileSync(new URL(file, EXAMPLES_DIR), 'utf8'))));

function extractOrUndefined(source: unknown): ExtractionResult | undefined {
  try {
    return extractModelSchema(source);
  } catch (error) {
    if (isVettedError(error)) return undefined;
    throw error;
  }
}

/** An extracted schema and its quarantine, with the example strings a payload might copy. */
interface Model {
  extraction: ExtractionResult;
  examples: string[];
}

const modelArb: fc.Arbitrary<Model> = fc.oneof(
  fc.constantFrom(...sampleModels).map((extraction) => ({ extraction, examples: extraction.quarantine.entries().map((e) => String(e.value)) })),
  replicateModelArb()
    .map((generated) => ({ extraction: extractOrUndefined(generated.source), examples: generated.canaries }))
    .filter((model): model is Model => model.extraction !== undefined),
);

/**
 * The arbitraries below are built once and know nothing of the schema: a key is a `FieldPick` (the n-th
 * field of whatever schema the case has) or a literal key, and a value may be an `ExamplePick` (the n-th
 * example string of the model). {@link resolveCase} binds them to the case's model. Building arbitraries
 * per schema (with fc.chain) made generation cost seconds.
 */
class FieldPick {
  constructor(readonly index: number) {}
}
class ExamplePick {
  constructor(readonly index: number) {}
}

const keyChoiceArb: fc.Arbitrary<FieldPick | string> = fc.oneof(
  { weight: 3, arbitrary: fc.nat(63).map((index) => new FieldPick(index)) },
  { weight: 1, arbitrary: keyArb() },
);

/** Values a builder (or a broken one) could put in a payload, including copied example values. */
const valueArb: fc.Arbitrary<unknown> = fc.oneof(
  jsonArb(3),
  numberArb(),
  fc.constantFrom(...NAN_LIKE_STRINGS, ...INJECTION_STRINGS, ...EDGE_NUMBERS, 'https://x.test/a.png', 'data:image/png;base64,AAAA'),
  fc.nat(63).map((index) => new ExamplePick(index)),
);

const entriesArb = (value: fc.Arbitrary<unknown>, maxLength: number) => fc.array(fc.tuple(keyChoiceArb, value), { maxLength });

/** Provenance claims: contract-shaped ones, and junk that a broken builder could produce (null included). */
const provenanceArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.record(
    {
      source: fc.constantFrom<FieldProvenance['source']>('user_prompt', 'attachment', 'human_edit', 'schema_default', 'inferred'),
      evidence: textArb(),
      confidence: fc.double({ min: 0, max: 1, noNaN: true }),
    },
    { requiredKeys: ['source'], noNullPrototype: true },
  ),
  jsonArb(2),
);

/** The same provenance junk without `null` entries (see provenanceArb). */
function withoutNullEntries(value: unknown): unknown {
  return isPlainRecord(value) ? Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== null)) : value;
}

/** A candidate with unresolved picks, or one that ignores its contract altogether (an old row, a broken builder). */
const rawCandidateArb = fc.oneof(
  { weight: 5, arbitrary: fc.record({ payload: entriesArb(valueArb, 8), provenance: entriesArb(provenanceArb, 8), confidence: fc.double({ min: 0, max: 1, noNaN: true }) }) },
  { weight: 1, arbitrary: fc.record({ junk: fc.constant(true), payload: jsonArb(3), provenance: jsonArb(2).map(withoutNullEntries), confidence: jsonArb(0) }) },
);

const textOrExampleArb = fc.oneof(textArb(), fc.string({ maxLength: 80 }), fc.nat(63).map((index) => new ExamplePick(index)));

const rawBundleArb = fc.record({
  prompt: textOrExampleArb,
  conversation: fc.array(fc.tuple(fc.constantFrom<'user' | 'assistant' | 'system'>('user', 'assistant', 'system'), textOrExampleArb), { maxLength: 3 }),
  attachments: fc.array(
    fc.tuple(fc.string({ maxLength: 12 }), fc.constantFrom('image/png', 'audio/wav', 'video/mp4', 'application/octet-stream'), textOrExampleArb),
    { maxLength: 2 },
  ),
  userProfile: fc.dictionary(fc.string({ maxLength: 10 }), fc.oneof(textArb(), numberArb(), fc.boolean()), { maxKeys: 3, noNullPrototype: true }),
  humanEdits: entriesArb(valueArb, 3),
});

const caseArb = fc
  .tuple(modelArb, fc.oneof(fc.constant(undefined), jsonArb(3)), rawCandidateArb, rawBundleArb)
  .map(([model, otherExample, candidate, bundle]) => resolveCase(model, otherExample, candidate, bundle));

type RawCandidate = typeof rawCandidateArb extends fc.Arbitrary<infer T> ? T : never;
type RawBundle = typeof rawBundleArb extends fc.Arbitrary<infer T> ? T : never;

/** Binds the picks of a raw case to its model: field names, example strings. */
function resolveCase(model: Model, otherExample: unknown, rawCandidate: RawCandidate, rawBundle: RawBundle) {
  const names = model.extraction.modelSchema.fields.map((field) => field.name);
  const key = (choice: FieldPick | string) => (choice instanceof FieldPick ? (names[choice.index % names.length] ?? 'prompt') : choice);
  const value = (choice: unknown) => (choice instanceof ExamplePick ? (model.examples[choice.index % model.examples.length] ?? 'no example') : choice);
  const text = (choice: unknown) => String(value(choice));
  // fromEntries defines own properties, so a "__proto__" key stays a key.
  const record = (entries: [FieldPick | string, unknown][]) => Object.fromEntries(entries.map(([k, v]) => [key(k), value(v)]));
  const candidate = ('junk' in rawCandidate
    ? { payload: rawCandidate.payload, provenance: rawCandidate.provenance, confidence: rawCandidate.confidence, builder: 'junk' }
    : { payload: record(rawCandidate.payload), provenance: record(rawCandidate.provenance), confidence: rawCandidate.confidence, builder: 'heuristic' }) as CandidatePayload;
  const bundle: RequestBundle = {
    prompt: text(rawBundle.prompt),
    conversation: rawBundle.conversation.map(([role, content]) => ({ role, content: text(content) })),
    attachments: rawBundle.attachments.map(([path, mimeType, name]) => ({ url: `https://files.test/${encodeURIComponent(path)}`, mimeType, name: text(name) })),
    userProfile: rawBundle.userProfile,
    humanEdits: record(rawBundle.humanEdits.filter(([k]) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(key(k)))),
    safetyFlags: [],
  };
  // Usually the model's own quarantine; sometimes another model's, which must not confuse the firewall either.
  const quarantine = otherExample === undefined ? model.extraction.quarantine : ExampleQuarantine.fromExamples(otherExample);
  return { extraction: model.extraction, quarantine, candidate, bundle };
}

/** The issues, or undefined for a typed refusal to compile the schema; anything else is rethrown. */
function validateOrRefuse(input: Parameters<typeof validatePayload>[0]): ValidationIssue[] | undefined {
  try {
    return validatePayload(input, cache);
  } catch (error) {
    if (isVettedError(error) && error.code === 'SCHEMA_UNSUPPORTED') return undefined;
    throw error;
  }
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

describe('validatePayload on arbitrary candidates', () => {
  it('answers sorted, distinct, contract-valid issues, the same every time, or a typed refusal', () => {
    fc.assert(
      fc.property(caseArb, ({ extraction, quarantine, candidate, bundle }) => {
        const input = { candidate, schema: extraction.modelSchema, bundle, quarantine };
        const issues = validateOrRefuse(input);
        if (issues === undefined) return;
        for (const issue of issues) assertContract('validation-issue', issue, 'issue');
        for (let i = 1; i < issues.length; i++) expect(compareIssues(issues[i - 1] as ValidationIssue, issues[i] as ValidationIssue)).toBeLessThan(0);
        expect(validatePayload(input, cache)).toEqual(issues);
      }),
      propertyParams(200),
    );
  });

  it('blocks every field the schema does not name and every required field that is missing', () => {
    fc.assert(
      fc.property(caseArb, ({ extraction, quarantine, candidate, bundle }) => {
        const schema = extraction.modelSchema;
        const issues = validateOrRefuse({ candidate, schema, bundle, quarantine });
        if (issues === undefined || !isPlainRecord(candidate.payload)) return;
        const payload = candidate.payload;
        const blockedPaths = new Set(issues.filter((issue) => issue.severity === 'blocking').map((issue) => issue.path));
        const known = new Set(schema.fields.map((field) => field.name));
        const unknown = Object.keys(payload).filter((name) => !known.has(name) && payload[name] !== undefined);
        // Required fields named like Object.prototype members (constructor, toString) must be reported too.
        const missing = schema.fields
          .filter((field) => field.required && !Object.hasOwn(payload, field.name))
          .map((field) => field.name);
        for (const name of [...unknown, ...missing]) expect(blockedPaths, `/${name}`).toContain(`/${escapePointer(name)}`);
      }),
      propertyParams(200),
    );
  });
});
