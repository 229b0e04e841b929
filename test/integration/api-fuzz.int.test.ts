/**
 * A fuzz generated from the served OpenAPI document, over every operation and every parameter: requests a
 * client reading the document would send (values from its schemas, test/support/schema-arbitrary.ts) and
 * hostile ones (non-finite and unbounded numbers, impossible dates, unknown parameters, bodies the document
 * refuses). Seeded and bounded (VETTED_FUZZ_SEED reproduces a run), through inject, on one system.
 *
 * Every answer: no 5xx; conforms to the document (the harness's conformance hook); a request the document
 * allows is never refused by validation (a 400 listing schema `errors` or unknown parameters); a request
 * it refuses is a 4xx. And the process is still up at the end.
 */
import type { ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, json, type ApiHarness } from '../support/api.ts';
import { settle } from '../support/pipeline.ts';
import { arbitraryFor } from '../support/schema-arbitrary.ts';

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

const SEED = Number(process.env.VETTED_FUZZ_SEED ?? 22);
/** Requests per operation drawn from the document, and hostile variations per parameter and body. */
const VALID_PER_OPERATION = 30;
const HOSTILE_BODIES_PER_OPERATION = 25;

type Schema = Record<string, unknown>;
interface Parameter { name: string; in: 'path' | 'query' | 'header'; required: boolean; schema: Schema }
interface Operation { method: string; path: string; pointer: string; parameters: Parameter[]; requiresOneOf?: string[][]; body?: { schema: Schema; required: boolean }; streams: boolean }
interface FuzzRequest { op: Operation; why: string; path: Record<string, string>; query: Record<string, string | string[]>; headers: Record<string, string>; body?: string }

const HOSTILE_TEXT = [
  '1e309', 'Infinity', '-Infinity', 'NaN', '-1', '1e2', '0x10', '1.5', '99999999999999999999', '', ' ', 'null', 'true', '[]', '{}',
  '0000-01-01T00:00:00Z', '2026-12-31T23:59:60Z', '2026-02-30T00:00:00Z', '99999-01-01T00:00:00Z', '2026-01-01', 'yesterday',
  'a'.repeat(600), '\u0000', '%00', '../../etc/passwd', "' OR 1=1 --", '__proto__', 'constructor', '😀', '\ud800', 'me',
];
const HOSTILE_JSON = ['1e309', '-0', '123456789012345678901234567890', '"\\u0000"', '"\\ud800"', 'null', '[]', '{}', '"x"', 'true', `"${'z'.repeat(5000)}"`, '{"__proto__":{"a":1}}'];

let api: ApiHarness;
let document: Schema;
let ajv: Ajv2020;
const validators = new Map<string, ValidateFunction>();
const ids: { runs: string[]; reviews: string[]; sessions: string[] } = { runs: [], reviews: [], sessions: ['s-fuzz'] };

beforeAll(async () => {
  // Callback URLs are refused without a webhook secret, so no generated request makes a worker reach out.
  api = await createApiHarness({ VETTED_RATE_LIMIT_PER_MINUTE: '1000000', VETTED_WEBHOOK_SECRET: '' });
  const submit = async (body: Schema) => json<{ id: string }>(await api.call('POST', '/api/runs', { key: api.keys.submitter, body })).id;
  const completed = await submit({ model: 'black-forest-labs/flux-schnell', prompt: 'a heron', sessionId: 's-fuzz' });
  const parked = await submit({ model: 'nightmareai/real-esrgan', prompt: 'sharpen', sessionId: 's-fuzz' });
  await settle(api.system, completed, ['completed']);
  const review = (await settle(api.system, parked, ['awaiting_human'])).pendingReviewId!;
  ids.runs.push(completed, parked);
  ids.reviews.push(review);
  // The fuzz drives the API alone: runs it creates wait in PostgreSQL.
  await api.workers.close();
  document = api.app.openapiDocument as Schema;
  ajv = new Ajv2020({ strict: false, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema({ ...document, $id: 'https://vetted.dev/openapi.json' });
});

afterAll(async () => {
  await api?.close();
});

function validatorAt(pointer: string): ValidateFunction {
  let validate = validators.get(pointer);
  if (!validate) {
    validate = ajv.compile({ $ref: `https://vetted.dev/openapi.json#${pointer}` });
    validators.set(pointer, validate);
  }
  return validate;
}

const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

function operations(): Operation[] {
  const paths = document.paths as Record<string, Record<string, Schema>>;
  return Object.entries(paths).flatMap(([path, methods]) =>
    Object.entries(methods).flatMap(([method, op]) => {
      const pointer = `/paths/${escape(path)}/${method}`;
      const content = (op.requestBody as { content?: Record<string, { schema: Schema }>; required?: boolean } | undefined);
      // A body that is not JSON (Slack's signed form posts) is refused before it is read unless its signature holds:
      // its own tests send it tampered and stale (slack-decisions.int.test.ts); fuzzing its fields here reaches nothing.
      if (content?.content && !content.content['application/json']) return [];
      const ok = (op.responses as Record<string, { content?: Schema }>)['200'];
      return [{
        method: method.toUpperCase(), path, pointer,
        parameters: (op.parameters as Parameter[] | undefined) ?? [],
        ...(op['x-query-requires-one-of'] ? { requiresOneOf: op['x-query-requires-one-of'] as string[][] } : {}),
        ...(content?.content ? { body: { schema: content.content['application/json']!.schema, required: content.required === true } } : {}),
        streams: Boolean(ok?.content && 'text/event-stream' in ok.content),
      }];
    }),
  );
}

/** The value a client would send, as text: numbers in plain digits, lists repeated. */
function asText(value: unknown): string | string[] {
  if (Array.isArray(value)) return value.map((item) => String(item));
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** What a parameter's text means to a reader of the document (numbers in plain digits only). */
function typedValue(text: string | string[], schema: Schema): unknown {
  const type = schema.type ?? (schema.$ref ? 'string' : undefined);
  if (type === 'array') return [text].flat().map((item) => typedValue(item, (schema.items ?? {}) as Schema));
  if (Array.isArray(text)) return text;
  if ((type === 'integer' || type === 'number') && /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/.test(text)) return Number(text);
  if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

/** Whether the document allows the request (every parameter, the body). */
function documentAllows(request: FuzzRequest): boolean {
  const { op } = request;
  const declared = new Map(op.parameters.map((p, index) => [`${p.in}:${p.name}`, { p, index }]));
  for (const name of Object.keys(request.query)) if (!declared.has(`query:${name}`)) return false;
  if (op.requiresOneOf && !op.requiresOneOf.some((set) => set.every((name) => request.query[name] !== undefined))) return false;
  for (const [index, p] of op.parameters.entries()) {
    const raw = p.in === 'path' ? request.path[p.name] : p.in === 'query' ? request.query[p.name] : request.headers[p.name];
    if (raw === undefined) {
      if (p.required) return false;
      continue;
    }
    if (!validatorAt(`${op.pointer}/parameters/${index}/schema`)(typedValue(raw, p.schema))) return false;
  }
  if (!op.body) return true;
  if (request.body === undefined) return !op.body.required;
  let parsed: unknown;
  try {
    parsed = JSON.parse(request.body);
  } catch {
    return false;
  }
  return validatorAt(`${op.pointer}/requestBody/content/application~1json/schema`)(parsed);
}

function sample<T>(arbitrary: fc.Arbitrary<T>, count: number, salt: number): T[] {
  return fc.sample(arbitrary, { seed: SEED + salt, numRuns: count });
}

/** Path values: the system's real runs and reviews most of the time, else what the schema allows. */
function pathValue(p: Parameter): fc.Arbitrary<string> {
  const real = p.name === 'reviewId' ? ids.reviews : p.name === 'sessionId' ? ids.sessions : ids.runs;
  return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...real) }, { weight: 1, arbitrary: arbitraryFor(p.schema, document).map((v) => String(v)) });
}

function validRequests(op: Operation, salt: number): FuzzRequest[] {
  const query = op.parameters.filter((p) => p.in === 'query');
  const arbitrary = fc.record({
    path: fc.record(Object.fromEntries(op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, pathValue(p)]))),
    query: fc.record(Object.fromEntries(query.map((p) => [p.name, arbitraryFor(p.schema, document).map(asText)])), { requiredKeys: query.filter((p) => p.required).map((p) => p.name) }),
    body: op.body ? arbitraryFor(op.body.schema, document).map((value) => JSON.stringify(value)) : fc.constant(undefined),
  });
  const drawn = sample(arbitrary, VALID_PER_OPERATION * 2, salt)
    .map(({ path, query: q, body }) => ({ op, why: 'from the document', path, query: q as Record<string, string | string[]>, headers: {}, body }));
  // The document's own examples first (a realistic body to start the hostile variations from), on a real target.
  const examples = ((op.body?.schema.examples as unknown[] | undefined) ?? []).map((example, index) => ({ ...drawn[index % drawn.length]!, why: `example ${index}`, body: JSON.stringify(example) }));
  return [...examples, ...drawn].filter(documentAllows).slice(0, VALID_PER_OPERATION);
}

/** Each parameter given each hostile text (path and query), and a parameter the route does not have. */
function hostileParameterRequests(op: Operation, base: FuzzRequest): FuzzRequest[] {
  const requests: FuzzRequest[] = [];
  for (const p of op.parameters.filter((param) => param.in !== 'header')) {
    for (const text of HOSTILE_TEXT) {
      const request: FuzzRequest = { ...base, why: `${p.in} ${p.name}=${JSON.stringify(text).slice(0, 30)}`, path: { ...base.path }, query: { ...base.query } };
      if (p.in === 'path') request.path[p.name] = text;
      else request.query[p.name] = text;
      requests.push(request);
    }
    if (p.in === 'query') requests.push({ ...base, why: `${p.name} twice`, query: { ...base.query, [p.name]: ['1', '2'] } });
  }
  requests.push({ ...base, why: 'an unknown parameter', query: { ...base.query, colour: 'red' } });
  return requests;
}

/** The base body with one member replaced by a hostile JSON value, dropped, or joined by an unknown one. */
function hostileBodyRequests(op: Operation, base: FuzzRequest, salt: number): FuzzRequest[] {
  if (!op.body || base.body === undefined) return [];
  const parsed = JSON.parse(base.body) as unknown;
  // A body that may be null (pause, resume) is mutated from an empty object.
  const value = (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : {}) as Schema;
  const keys = Object.keys(value);
  const mutations = sample(fc.tuple(fc.nat(), fc.nat(HOSTILE_JSON.length - 1), fc.nat(2)), HOSTILE_BODIES_PER_OPERATION, salt);
  return [
    ...mutations.map(([keyIndex, valueIndex, kind]) => {
      const key = keys.length > 0 ? keys[keyIndex % keys.length]! : 'x';
      if (kind === 0 && keys.length > 0) {
        const { [key]: _dropped, ...rest } = value;
        return { ...base, why: `body without ${key}`, body: JSON.stringify(rest) };
      }
      const target = kind === 1 ? key : 'unexpectedField';
      const members = { ...value, [target]: '__HOSTILE__' };
      return { ...base, why: `body ${target}: ${HOSTILE_JSON[valueIndex]!.slice(0, 20)}`, body: JSON.stringify(members).replace('"__HOSTILE__"', HOSTILE_JSON[valueIndex]!) };
    }),
    ...HOSTILE_JSON.map((text) => ({ ...base, why: `body ${text.slice(0, 20)}`, body: text })),
  ];
}

interface Outcome { request: FuzzRequest; status: number; body: string; problems: string[] }

/** Percent-encodes a path segment; a lone surrogate (no UTF-8 form) goes as the bytes of invalid UTF-8 it would be. */
function encodeSegment(text: string): string {
  return text.replace(/\p{Cs}/gu, '\u0000SURROGATE\u0000').split('\u0000SURROGATE\u0000').map(encodeURIComponent).join('%ED%A0%80');
}

async function send(request: FuzzRequest): Promise<Outcome> {
  const path = request.op.path.replace(/\{([^}]+)\}/g, (_match, name: string) => encodeSegment(request.path[name] ?? ''));
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(request.query)) for (const item of [value].flat()) search.append(name, item);
  const url = search.size > 0 ? `${path}?${search.toString()}` : path;
  const headers: Record<string, string> = { authorization: `Bearer ${api.keys.admin}`, ...request.headers, ...(request.body === undefined ? {} : { 'content-type': 'application/json' }) };
  const response = await api.app.inject({ method: request.op.method as 'GET', url, headers, ...(request.body === undefined ? {} : { payload: request.body }), ...(request.op.streams ? { payloadAsStream: true } : {}) });
  let body = '';
  if (request.op.streams && response.statusCode === 200) {
    (response.raw.res as unknown as { req: { destroy(): void } }).req.destroy();
    response.raw.res.destroy();
  } else if (request.op.streams) {
    const chunks: Buffer[] = [];
    for await (const chunk of response.stream()) chunks.push(chunk as Buffer);
    body = Buffer.concat(chunks).toString('utf8');
  } else {
    body = response.body;
  }
  // The stream's conformance is recorded as its connection closes.
  if (request.op.streams) await new Promise((resolve) => setImmediate(resolve));
  return { request, status: response.statusCode, body, problems: api.conformance.violations.splice(0) };
}

/** What is wrong with one outcome, beside conformance. */
function verdict(outcome: Outcome): string[] {
  const allowed = documentAllows(outcome.request);
  const problems = [...outcome.problems];
  if (outcome.status >= 500) problems.push(`answered ${outcome.status}: ${outcome.body.slice(0, 300)}`);
  if (allowed && outcome.status === 400) {
    const problem = JSON.parse(outcome.body) as { errors?: unknown; unknown?: unknown; detail?: string };
    if (problem.errors || problem.unknown) problems.push(`the document allows it, the validation refused it: ${problem.detail}`);
  }
  if (!allowed && (outcome.status < 400 || outcome.status >= 500)) problems.push(`the document refuses it, the API answered ${outcome.status}`);
  return problems;
}

describe('a fuzz generated from the OpenAPI document', () => {
  it('over every operation and parameter: no 5xx, every answer documented, validation and document agree, the process up', async () => {
    const all = operations();
    const requests = all.flatMap((op, index) => {
      const valid = validRequests(op, index * 1000);
      const base: FuzzRequest = valid[0] ?? { op, why: 'base', path: {}, query: {}, headers: {} };
      return [...valid, ...hostileParameterRequests(op, base), ...hostileBodyRequests(op, base, index * 1000 + 500)];
    });
    const outcomes: Outcome[] = [];
    for (const request of requests) outcomes.push(await send(request));

    const byOperation = new Map<string, Map<number, number>>();
    const failures: string[] = [];
    let allowedCount = 0;
    for (const outcome of outcomes) {
      const name = `${outcome.request.op.method} ${outcome.request.op.path}`;
      const counts = byOperation.get(name) ?? new Map<number, number>();
      counts.set(outcome.status, (counts.get(outcome.status) ?? 0) + 1);
      byOperation.set(name, counts);
      if (documentAllows(outcome.request)) allowedCount++;
      for (const problem of verdict(outcome)) failures.push(`${name} (${outcome.request.why}): ${problem}`);
    }
    console.log(`fuzz seed ${SEED}: ${outcomes.length} requests over ${all.length} operations (${allowedCount} the document allows)`);
    for (const [name, counts] of byOperation) console.log(`  ${name.padEnd(48)} ${[...counts].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`).join(' ')}`);

    expect(failures.slice(0, 40)).toEqual([]);
    expect(new Set(outcomes.map((o) => `${o.request.op.method} ${o.request.op.path}`)).size).toBe(all.length);
    expect(allowedCount).toBeGreaterThan(all.length * 10);
    expect((await api.app.inject({ method: 'GET', url: '/api/healthz' })).statusCode).toBe(200);
  });
});
