/**
 * Hostile input at the API, on real Fastify (inject), PostgreSQL and Redis: well over a thousand malformed,
 * oversized, wrongly typed and injection-shaped requests to every route, with keys of every role and with
 * bad keys. Every answer must be a 4xx problem (application/problem+json with code, status, detail, and the
 * field when one is at fault), never a 5xx; the process must stay up; the rows of real runs must not change;
 * and no run may exist that a request should not have created. The requests come from fixed lists and
 * seeded fast-check samples (test/support/hostile.ts), so every run sends the same ones.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/db/schema/index.ts';
import { ROLE_PERMISSIONS, type Permission } from '../../src/auth/api-keys.ts';
import { assertContract } from '../../src/schema/contracts.ts';
import { createApiHarness, json, type ApiHarness } from '../support/api.ts';
import {
  BAD_CONTROL_BODIES, badAuthorizations, badSubmissions, BOGUS_LAST_EVENT_IDS, bodyTextArb, bogusCursors, deepJson, HOSTILE_CONTENT_TYPES, HOSTILE_IDS,
  HOSTILE_QUERIES, HOSTILE_REVIEW_QUERIES, HOSTILE_SESSION_IDS, MALFORMED_JSON, oddSubmissions, rawSubmissions, sampleOf,
} from '../support/hostile.ts';
import { exampleModel, settle } from '../support/pipeline.ts';

const FLUX = 'black-forest-labs/flux-schnell';
/** How many requests are in flight at once: enough to overlap database round trips, few enough to stay fair. */
const CONCURRENCY = 16;
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

type KeyName = keyof ApiHarness['keys'];
type Method = 'GET' | 'POST' | 'DELETE' | 'PUT' | 'PATCH' | 'OPTIONS' | 'HEAD';

/** The role behind each harness key (override is a reviewer with the extra permission). */
const KEY_ROLES: Record<KeyName, Role> = { submitter: 'submitter', reviewer: 'reviewer', admin: 'admin', override: 'reviewer', other: 'submitter', otherReviewer: 'reviewer' };
const TENANT_KEYS: KeyName[] = ['submitter', 'reviewer', 'admin', 'override'];

/** One request and what it may answer. */
interface HostileRequest {
  /** The route template, for the tally. */
  route: string;
  method: Method;
  url: string;
  headers: Record<string, string | string[]>;
  payload?: string;
  /** `refuse`: a 4xx problem. `may-create`: a valid if odd submission, which may also be accepted (202/200). */
  expect: 'refuse' | 'may-create';
  why: string;
}

/** The real runs the barrage aims at, one per resting state, plus a run of another tenant. */
interface Targets {
  completed: string;
  awaiting: string;
  paused: string;
  cancelled: string;
  failed: string;
  foreign: string;
  review: { reviewId: string; payloadHash: string };
}

let api: ApiHarness;
let targets: Targets;

beforeAll(async () => {
  // The rate limit would turn most of the barrage into 429s and hide what the routes themselves answer.
  api = await createApiHarness({ VETTED_RATE_LIMIT_PER_MINUTE: '1000000' });
  targets = await createTargets();
});

afterAll(async () => {
  await api?.close();
});

// ---------------------------------------------------------------------------------------------------------
// Real runs, and what they look like in PostgreSQL

async function submit(body: Record<string, unknown>, key: KeyName = 'submitter'): Promise<string> {
  const response = await api.call('POST', '/api/runs', { key: api.keys[key], body });
  expect(response.statusCode, response.body).toBe(202);
  return json<{ id: string }>(response).id;
}

/** A run parked for review; another tenant names the model inline, since the catalog holds it for t1 only. */
async function parked(key: KeyName = 'submitter'): Promise<string> {
  const model = key === 'submitter' ? { model: FLUX } : { modelSource: exampleModel('flux-schnell.model.json') };
  const id = await submit({ ...model, prompt: 'a heron in the fog', policy: 'require_human' }, key);
  expect((await settle(api.system, id)).status).toBe('awaiting_human');
  return id;
}

async function createTargets(): Promise<Targets> {
  const completed = await submit({ model: FLUX, prompt: 'a heron in the fog' });
  // Intake refuses what it can see; an edit naming no input of the model is found by the build stage.
  const failed = await submit({ model: FLUX, prompt: 'x', edits: { nothing: 'here' } });
  const [awaiting, paused, cancelled] = [await parked(), await parked(), await parked()];
  const foreign = await parked('other');
  expect((await api.call('POST', `/api/runs/${paused}/pause`, { key: api.keys.submitter })).statusCode).toBe(200);
  expect((await api.call('DELETE', `/api/runs/${cancelled}`, { key: api.keys.submitter })).statusCode).toBe(200);
  await settle(api.system, completed, ['completed']);
  await settle(api.system, failed, ['failed']);
  const run = json<{ pendingReview: { reviewId: string; payloadHash: string } }>(await api.call('GET', `/api/runs/${awaiting}`, { key: api.keys.reviewer }));
  return { completed, awaiting, paused, cancelled, failed, foreign, review: { reviewId: run.pendingReview.reviewId, payloadHash: run.pendingReview.payloadHash } };
}

/** Every row of these runs in runs, run_events and decisions, as PostgreSQL returns them. */
async function snapshotRows(ids: string[]): Promise<Record<string, unknown[]>> {
  const rows = async (sql: string) => (await api.system.database.pool.query(sql, [ids])).rows;
  return {
    runs: await rows('select * from runs where id = any($1::uuid[]) order by id'),
    runEvents: await rows('select * from run_events where run_id = any($1::uuid[]) order by id'),
    decisions: await rows('select * from decisions where run_id = any($1::uuid[]) order by id'),
  };
}

async function allRunIds(): Promise<Set<string>> {
  return new Set((await api.system.database.pool.query<{ id: string }>('select id from runs')).rows.map((row) => row.id));
}

async function rowCount(table: 'decisions' | 'api_keys'): Promise<number> {
  return Number((await api.system.database.pool.query<{ n: string }>(`select count(*) as n from ${table}`)).rows[0]?.n);
}

// ---------------------------------------------------------------------------------------------------------
// Building requests

interface RequestOptions {
  /** The whole Authorization header; absent sends none. */
  auth?: string;
  headers?: Record<string, string | string[]>;
  payload?: string;
  /** Sent with the payload; application/json unless a case is about the content type. */
  contentType?: string;
  expect?: HostileRequest['expect'];
  why: string;
}

function request(route: string, method: Method, url: string, options: RequestOptions): HostileRequest {
  const contentType: Record<string, string> = options.payload === undefined ? {} : { 'content-type': options.contentType ?? 'application/json' };
  const authorization: Record<string, string> = options.auth === undefined ? {} : { authorization: options.auth };
  return {
    route, method, url,
    headers: { ...contentType, ...authorization, ...options.headers },
    ...(options.payload === undefined ? {} : { payload: options.payload }),
    expect: options.expect ?? 'refuse',
    why: options.why,
  };
}

/** The keys of tenant t1 that hold `permission`, so a request fails on its own defect, not on its role. */
function keysWith(permission: Permission): KeyName[] {
  return TENANT_KEYS.filter((name) => ROLE_PERMISSIONS[KEY_ROLES[name]].includes(permission));
}

/** Round-robin over the permitted keys, so every role sends its share. */
function rotating(permission: Permission): () => string {
  const names = keysWith(permission);
  let next = 0;
  return () => `Bearer ${api.keys[names[next++ % names.length] as KeyName]}`;
}

/** The routes, as templates over an id. */
const ROUTES = {
  submit: { route: 'POST /api/runs', method: 'POST', url: () => '/api/runs', permission: 'runs:create' },
  list: { route: 'GET /api/runs', method: 'GET', url: () => '/api/runs', permission: 'runs:read' },
  get: { route: 'GET /api/runs/:id', method: 'GET', url: (id: string) => `/api/runs/${id}`, permission: 'runs:read' },
  state: { route: 'GET /api/runs/:id/state', method: 'GET', url: (id: string) => `/api/runs/${id}/state`, permission: 'runs:read' },
  active: { route: 'GET /api/runs/active', method: 'GET', url: () => '/api/runs/active', permission: 'runs:read' },
  session: { route: 'GET /api/sessions/:sessionId/runs/active', method: 'GET', url: (id: string) => `/api/sessions/${id}/runs/active`, permission: 'runs:read' },
  pending: { route: 'GET /api/reviews/pending', method: 'GET', url: () => '/api/reviews/pending', permission: 'reviews:read' },
  review: { route: 'GET /api/reviews/:reviewId', method: 'GET', url: (id: string) => `/api/reviews/${id}`, permission: 'reviews:read' },
  reviews: { route: 'GET /api/reviews', method: 'GET', url: () => '/api/reviews', permission: 'reviews:read' },
  claim: { route: 'POST /api/reviews/:reviewId/claim', method: 'POST', url: (id: string) => `/api/reviews/${id}/claim`, permission: 'reviews:decide' },
  decision: { route: 'POST /api/runs/:id/decision', method: 'POST', url: (id: string) => `/api/runs/${id}/decision`, permission: 'reviews:decide' },
  pause: { route: 'POST /api/runs/:id/pause', method: 'POST', url: (id: string) => `/api/runs/${id}/pause`, permission: 'runs:control' },
  resume: { route: 'POST /api/runs/:id/resume', method: 'POST', url: (id: string) => `/api/runs/${id}/resume`, permission: 'runs:control' },
  cancel: { route: 'DELETE /api/runs/:id', method: 'DELETE', url: (id: string) => `/api/runs/${id}`, permission: 'runs:control' },
  events: { route: 'GET /api/runs/:id/events', method: 'GET', url: (id: string) => `/api/runs/${id}/events`, permission: 'runs:read' },
  providers: { route: 'GET /api/providers', method: 'GET', url: () => '/api/providers', permission: 'runs:read' },
  reviewForm: { route: 'GET /api/reviews/:reviewId/form', method: 'GET', url: (id: string) => `/api/reviews/${id}/form`, permission: 'reviews:read' },
  me: { route: 'GET /api/me', method: 'GET', url: () => '/api/me', permission: 'runs:read' },
} as const satisfies Record<string, { route: string; method: Method; url: (id: string) => string; permission: Permission }>;

type RouteName = keyof typeof ROUTES;
const ID_ROUTES: RouteName[] = ['get', 'state', 'decision', 'pause', 'resume', 'cancel', 'events'];

/** A body a route would accept, so that a request is refused for its key alone. */
function validBody(name: RouteName): string | undefined {
  if (name === 'submit') return JSON.stringify({ model: FLUX, prompt: 'never created' });
  if (name === 'decision') return JSON.stringify({ ...targets.review, action: 'reject' });
  if (name === 'pause' || name === 'resume') return '{}';
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------
// The barrage, family by family

/** Every route with every bad key (401), aimed at the live parked run where the route takes an id. */
function badKeyRequests(): HostileRequest[] {
  return (Object.keys(ROUTES) as RouteName[]).flatMap((name) => {
    const r = ROUTES[name];
    const id = name === 'review' || name === 'claim' || name === 'reviewForm' ? targets.review.reviewId : name === 'session' ? 'session-1' : targets.awaiting;
    return badAuthorizations(api.keys.admin).map((auth, i) =>
      request(r.route, r.method, r.url(id), { auth, payload: validBody(name), why: `bad key #${i}` }));
  });
}

/** A valid request from a role that lacks the permission (403), on the live parked run. */
function wrongRoleRequests(): HostileRequest[] {
  return (Object.keys(ROUTES) as RouteName[]).flatMap((name) => {
    const r = ROUTES[name];
    const id = name === 'review' || name === 'claim' || name === 'reviewForm' ? targets.review.reviewId : targets.awaiting;
    return TENANT_KEYS.filter((key) => !keysWith(r.permission).includes(key)).map((key) =>
      request(r.route, r.method, r.url(id), { auth: `Bearer ${api.keys[key]}`, payload: validBody(name), why: `${key} lacks ${r.permission}` }));
  });
}

/** Hostile ids in every id slot (400), and unknown or foreign ids (404), with permitted keys. */
function idRequests(): HostileRequest[] {
  const out: HostileRequest[] = [];
  for (const name of [...ID_ROUTES, 'review', 'reviewForm', 'session'] as RouteName[]) {
    const r = ROUTES[name];
    const key = rotating(r.permission);
    const ids = name === 'session' ? HOSTILE_SESSION_IDS : HOSTILE_IDS;
    for (const id of ids) out.push(request(r.route, r.method, r.url(id), { auth: key(), payload: validBody(name), why: `id ${id.slice(0, 40)}` }));
    if (name === 'session') continue;
    for (const id of [UNKNOWN_ID, UNKNOWN_ID.toUpperCase(), targets.foreign]) {
      out.push(request(r.route, r.method, r.url(id), { auth: key(), payload: validBody(name), why: `unknown or foreign id ${id}` }));
    }
    // Another tenant's keys on this tenant's live run: 404, as if it did not exist.
    const target = name === 'review' || name === 'reviewForm' ? targets.review.reviewId : targets.awaiting;
    for (const other of ['other', 'otherReviewer'] as const) {
      out.push(request(r.route, r.method, r.url(target), { auth: `Bearer ${api.keys[other]}`, payload: validBody(name), why: `${other} on tenant t1` }));
    }
  }
  return out;
}

/** Hostile query strings on the routes that take one. */
function queryRequests(): HostileRequest[] {
  const cursors = bogusCursors().map((cursor) => `cursor=${cursor}`);
  const families: [RouteName, readonly string[], string][] = [
    ['list', [...HOSTILE_QUERIES, ...cursors], ''],
    ['active', [...HOSTILE_QUERIES, ''], ''],
    ['pending', [...HOSTILE_REVIEW_QUERIES, ...cursors, 'assignee=%00', 'unclaimed=maybe', 'team=a%20b'], ''],
    ['reviews', ['status=all', 'status=decided&since=0000-01-01T00:00:00Z', 'limit=0', 'limit=abc', 'model=%00', 'unknown=1', ...cursors], ''],
    ['events', ['lastEventId=abc', 'lastEventId=-1', 'lastEventId=9999999999999999999', 'lastEventId=1&lastEventId=2', 'lastEventId=%00', 'unknown=1', '__proto__=1'], targets.completed],
  ];
  return families.flatMap(([name, queries, id]) => {
    const r = ROUTES[name];
    const key = rotating(r.permission);
    return queries.map((query) => request(r.route, r.method, `${r.url(id)}?${query}`, { auth: key(), why: `query ${query.slice(0, 60)}` }));
  });
}

/** Last-Event-ID headers that are not event ids (400 before the stream opens). */
function lastEventIdRequests(): HostileRequest[] {
  const key = rotating('runs:read');
  const values: (string | string[])[] = [...BOGUS_LAST_EVENT_IDS, ['abc', '1']];
  return [targets.completed, targets.awaiting].flatMap((id) =>
    values.map((value) => request(ROUTES.events.route, 'GET', ROUTES.events.url(id), { auth: key(), headers: { 'last-event-id': value }, why: `Last-Event-ID ${String(value).slice(0, 30)}` })));
}

function submissionRequests(): HostileRequest[] {
  const r = ROUTES.submit;
  const key = rotating(r.permission);
  const post = (payload: string, why: string, options: { expect?: HostileRequest['expect']; contentType?: string } = {}) =>
    request(r.route, 'POST', '/api/runs', { auth: key(), payload, why, ...options });
  return [
    ...badSubmissions(FLUX).map((body, i) => post(JSON.stringify(body), `bad submission #${i}`)),
    ...rawSubmissions(FLUX).map((text, i) => post(text, `raw submission #${i}`)),
    ...MALFORMED_JSON.map((text) => post(text, `malformed JSON ${JSON.stringify(text).slice(0, 30)}`)),
    ...HOSTILE_CONTENT_TYPES.map((type) => post('{"prompt":"x"}', `content-type ${type}`, { contentType: type })),
    ...oddSubmissions(FLUX).map((body, i) => post(JSON.stringify(body), `odd but valid submission #${i}`, { expect: 'may-create' })),
    // Arbitrary bodies: the contract decides whether one may create a run (almost none can).
    ...sampleOf(bodyTextArb(), 150, 1).map((text, i) => post(text, `arbitrary body #${i}`, { expect: mayCreate(text) ? 'may-create' : 'refuse' })),
  ];
}

/** True when a body text is a submission the API should accept: JSON, within the contract, naming a model. */
function mayCreate(text: string): boolean {
  try {
    const body = assertContract<Record<string, unknown>>('generation-request', JSON.parse(text), 'body');
    return body.model !== undefined || body.modelSource !== undefined;
  } catch {
    return false;
  }
}

/** Pause and resume bodies that break `{reason?: string}` (400 before the run is touched), on live runs. */
function controlBodyRequests(): HostileRequest[] {
  return (['pause', 'resume'] as const).flatMap((name) => {
    const r = ROUTES[name];
    const key = rotating(r.permission);
    // Pause is possible on the parked run and resume on the paused one: only a bad body stands in the way.
    const live = name === 'pause' ? targets.awaiting : targets.paused;
    return [
      ...BAD_CONTROL_BODIES.map((payload) => request(r.route, 'POST', r.url(live), { auth: key(), payload, why: `control body ${payload.slice(0, 30)}` })),
      ...MALFORMED_JSON.map((payload) => request(r.route, 'POST', r.url(live), { auth: key(), payload, why: `malformed control body ${JSON.stringify(payload).slice(0, 20)}` })),
      ...HOSTILE_CONTENT_TYPES.map((type) => request(r.route, 'POST', r.url(live), { auth: key(), payload: '{"reason":', contentType: type, why: `control content-type ${type}` })),
      // Terminal runs refuse everything, whatever the body (409, or 400 for a bad body).
      ...sampleOf(bodyTextArb(), 40, 2).map((payload, i) => request(r.route, 'POST', r.url(targets.completed), { auth: key(), payload, why: `arbitrary control body #${i}` })),
    ];
  });
}

/** Cancelling: a malformed body or a wrong content type is refused before the handler runs. */
function cancelRequests(): HostileRequest[] {
  const r = ROUTES.cancel;
  const key = rotating(r.permission);
  return [
    ...MALFORMED_JSON.filter((text) => text.trim() !== '').map((payload) => request(r.route, 'DELETE', r.url(targets.awaiting), { auth: key(), payload, why: `malformed cancel body ${JSON.stringify(payload).slice(0, 20)}` })),
    ...[targets.completed, targets.cancelled, targets.failed].map((id) => request(r.route, 'DELETE', r.url(id), { auth: key(), why: 'cancel a terminal run' })),
  ];
}

/**
 * Decisions on the parked run that each carry exactly one defect (stale review, wrong hash, bad edit, missing
 * permission...), so none of them may land; the same on the paused run; malformed bodies and content types;
 * and arbitrary bodies, which go through decide() as far as their shape allows.
 */
function decisionRequests(): HostileRequest[] {
  const r = ROUTES.decision;
  const { reviewId, payloadHash } = targets.review;
  const base = { reviewId, payloadHash };
  const defects: [unknown, string][] = [
    [{ reviewId, action: 'approve' }, 'approve without payloadHash'], [{ ...base, payloadHash: '0'.repeat(64), action: 'approve' }, 'wrong payloadHash'],
    [{ ...base, reviewId: UNKNOWN_ID, action: 'reject' }, 'stale reviewId'], [{ ...base, reviewId: reviewId.toUpperCase(), action: 'reject' }, 'upper-case reviewId'],
    [{ ...base, reviewId: `urn:uuid:${reviewId}`, action: 'reject' }, 'urn reviewId'], [{ ...base, action: 'retry' }, 'retry at a payload review'],
    [{ ...base, action: 'APPROVE' }, 'action in capitals'], [{ ...base, action: 'edit', edits: { nope: 1 } }, 'edit of an unknown field'],
    [{ ...base, action: 'edit', edits: {} }, 'edit of nothing'], [{ ...base, action: 'edit', edits: { num_outputs: 99 } }, 'edit out of range'],
    [{ ...base, action: 'edit', edits: { num_outputs: '2' } }, 'edit of the wrong type'], [{ ...base, action: 'edit', edits: { prompt: null } }, 'removing a required field'],
    [{ ...base, action: 'edit', edits: { '../x': 1 } }, 'edit name with a path'], [{ ...base, action: 'approve', edits: { num_outputs: 2 } }, 'edits with approve'],
    [{ ...base, action: 'approve', override: true }, 'override without the permission'], [{ ...base, action: 'approve', override: 'yes' }, 'override not a boolean'],
    [{ ...base, action: 'reject', reason: 'x'.repeat(2001) }, 'reason too long'], [{ ...base, action: 'reject', extra: 1 }, 'unknown field'],
    [{ ...base, action: 'reject', reason: 'a\u0000b' }, 'NUL in the reason'], [{ ...base, action: 'reject', reason: '\ud800' }, 'lone surrogate in the reason'],
    [{ ...base, action: 'edit', edits: { prompt: 'a\u0000' } }, 'NUL in an edit'], [{ ...base, action: 'reject', payloadHash: 'Z'.repeat(64) }, 'payloadHash not hex'],
    [[base], 'an array'], [null, 'null'], ['reject', 'a string'],
  ];
  const reviewerOnly = `Bearer ${api.keys.reviewer}`;
  const key = rotating(r.permission);
  return [
    // The reviewer key: it lacks override, which is one of the defects; an admin would hold it.
    ...defects.map(([body, why]) => request(r.route, 'POST', r.url(targets.awaiting), { auth: reviewerOnly, payload: JSON.stringify(body), why: `decision: ${why}` })),
    ...defects.map(([body, why]) => request(r.route, 'POST', r.url(targets.paused), { auth: key(), payload: JSON.stringify(body), why: `decision on a paused run: ${why}` })),
    request(r.route, 'POST', r.url(targets.awaiting), { auth: reviewerOnly, payload: `{"reviewId":"${reviewId}","action":"edit","payloadHash":"${payloadHash}","edits":{"__proto__":{"x":1}}}`, why: 'decision: __proto__ edit' }),
    request(r.route, 'POST', r.url(targets.awaiting), { auth: reviewerOnly, payload: `{"reviewId":"${reviewId}","action":"edit","payloadHash":"${payloadHash}","edits":{"num_outputs":${deepJson(400)}}}`, why: 'decision: deep edit' }),
    ...MALFORMED_JSON.map((payload) => request(r.route, 'POST', r.url(targets.awaiting), { auth: key(), payload, why: `malformed decision ${JSON.stringify(payload).slice(0, 20)}` })),
    // A parser that accepted one of these types would land the rejection, so they aim at a terminal run (409).
    ...HOSTILE_CONTENT_TYPES.map((type) => request(r.route, 'POST', r.url(targets.completed), { auth: key(), payload: JSON.stringify({ ...base, action: 'reject' }), contentType: type, why: `decision content-type ${type}` })),
    // Arbitrary bodies cannot name the pending review (a random reviewId is stale), so even the parked run is safe.
    ...sampleOf(bodyTextArb(), 120, 3).map((payload, i) => {
      const id = i % 2 === 0 ? targets.awaiting : targets.completed;
      return request(r.route, 'POST', r.url(id), { auth: key(), payload, why: `arbitrary decision #${i}` });
    }),
  ];
}

/** Paths and methods the router does not serve, and traversal shapes (404 problems). */
function pathAndMethodRequests(): HostileRequest[] {
  const auth = `Bearer ${api.keys.admin}`;
  const paths = [
    '/api/runs/../../etc/passwd', '/api/runs/%2e%2e/%2e%2e/etc/passwd', '/api//runs', '/API/RUNS', '/api/runs;x=1', '/api/runs%00', '/api/runs/x/y/z',
    '/api/reviewz', '/api/sessions//runs/active', `/api/runs?${'a=1&'.repeat(2000)}`, `/api/${'x'.repeat(8000)}`, '/.env', '/api/runs/%252e%252e',
    // A malformed escape, and a path segment past the router's limit: Fastify's own errors, as problems too.
    '/api/runs/%E0%A4%A', `/api/runs/${'a'.repeat(300)}`, `/api/sessions/${'s'.repeat(300)}/runs/active`,
  ];
  const methods: [Method, string][] = [['PUT', '/api/runs'], ['PATCH', `/api/runs/${targets.awaiting}`], ['OPTIONS', '/api/runs'], ['PUT', `/api/runs/${targets.awaiting}/decision`], ['POST', '/api/providers'], ['DELETE', '/api/runs']];
  return [
    ...paths.map((path) => request('(odd paths)', 'GET', path, { auth, why: `path ${path.slice(0, 40)}` })),
    ...methods.map(([method, path]) => request('(no route)', method, path, { auth, why: `${method} ${path}` })),
    request(ROUTES.get.route, 'HEAD', ROUTES.get.url('not-a-uuid'), { auth, why: 'HEAD with a bad id' }),
  ];
}

function allRequests(): HostileRequest[] {
  return [
    ...badKeyRequests(), ...wrongRoleRequests(), ...idRequests(), ...queryRequests(), ...lastEventIdRequests(), ...submissionRequests(),
    ...controlBodyRequests(), ...cancelRequests(), ...decisionRequests(), ...pathAndMethodRequests(),
  ];
}

// ---------------------------------------------------------------------------------------------------------
// Sending and judging

interface Answer {
  statusCode: number;
  contentType: string;
  body: string;
}

/**
 * The event stream answers 200 and stays open, so it is injected as a stream: a refusal is read whole, and
 * a stream that opened (which no request here should get) is closed at once and reported.
 */
async function send(req: HostileRequest): Promise<Answer> {
  const stream = req.route === ROUTES.events.route;
  const response: LightMyRequestResponse = await api.app.inject({
    method: req.method, url: req.url, headers: req.headers, ...(req.payload === undefined ? {} : { payload: req.payload }), ...(stream ? { payloadAsStream: true } : {}),
  });
  const contentType = String(response.headers['content-type'] ?? '');
  if (!stream) return { statusCode: response.statusCode, contentType, body: response.body };
  if (response.statusCode === 200) {
    (response.raw.res as unknown as { req: { destroy(): void } }).req.destroy();
    response.raw.res.destroy();
    return { statusCode: 200, contentType, body: '(event stream opened)' };
  }
  const chunks: Buffer[] = [];
  for await (const chunk of response.stream()) chunks.push(chunk as Buffer);
  return { statusCode: response.statusCode, contentType, body: Buffer.concat(chunks).toString('utf8') };
}

/** Runs `work` over `items` with at most `limit` in flight. */
async function pool<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}

/** Statuses whose problem must name the field at fault. */
const FIELD_STATUSES = new Set([400, 409, 413, 415, 422]);

/** What is wrong with an answer, or undefined when it is what the request may get. */
function judge(req: HostileRequest, answer: Answer): string | undefined {
  const { statusCode } = answer;
  if (req.expect === 'may-create' && (statusCode === 200 || statusCode === 202)) return undefined;
  if (statusCode < 400 || statusCode >= 500) return `status ${statusCode}`;
  if (!answer.contentType.startsWith('application/problem+json')) return `content-type ${answer.contentType}`;
  if (req.method === 'HEAD') return undefined;
  let problem: { type?: unknown; status?: unknown; code?: unknown; detail?: unknown; field?: unknown };
  try {
    problem = assertContract('problem', JSON.parse(answer.body), 'problem');
  } catch (error) {
    return `not a problem body (${(error as Error).message})`;
  }
  if (problem.status !== statusCode) return `problem.status ${String(problem.status)} on a ${statusCode}`;
  if (problem.type !== `https://vetted.dev/problems/${String(problem.code).toLowerCase().replace(/_/g, '-')}`) return `type ${String(problem.type)} for ${String(problem.code)}`;
  if (typeof problem.detail !== 'string' || problem.detail === '') return 'empty detail';
  if (FIELD_STATUSES.has(statusCode) && (typeof problem.field !== 'string' || problem.field === '')) return `no field on a ${statusCode} ${String(problem.code)}`;
  return undefined;
}

/** Statuses by route, one line per route: the compact tally printed once. */
function tally(requests: readonly HostileRequest[], answers: readonly Answer[]): string {
  const byRoute = new Map<string, Map<number, number>>();
  requests.forEach((req, i) => {
    const statuses = byRoute.get(req.route) ?? new Map<number, number>();
    const status = answers[i]?.statusCode ?? 0;
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    byRoute.set(req.route, statuses);
  });
  const width = Math.max(...[...byRoute.keys()].map((route) => route.length));
  const lines = [...byRoute].sort(([a], [b]) => a.localeCompare(b)).map(([route, statuses]) => {
    const total = [...statuses.values()].reduce((sum, n) => sum + n, 0);
    const counts = [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`).join(' ');
    return `  ${route.padEnd(width)}  ${String(total).padStart(4)}  ${counts}`;
  });
  return [`hostile requests: ${requests.length}`, ...lines].join('\n');
}

// ---------------------------------------------------------------------------------------------------------

describe('hostile input at every route', () => {
  it('answers every request with a 4xx problem, keeps the process up, and changes no row', async () => {
    const watched = [targets.completed, targets.awaiting, targets.paused, targets.cancelled, targets.failed, targets.foreign];
    const before = await snapshotRows(watched);
    const runsBefore = await allRunIds();
    const [decisionsBefore, keysBefore] = [await rowCount('decisions'), await rowCount('api_keys')];

    const requests = allRequests();
    expect(requests.length).toBeGreaterThan(1000);
    const answers = await pool(requests, CONCURRENCY, send);
    console.log(tally(requests, answers));

    const failures = requests.flatMap((req, i) => {
      const answer = answers[i] as Answer;
      const wrong = judge(req, answer);
      return wrong ? [`${req.method} ${req.url.slice(0, 80)} (${req.why}): ${wrong} ${answer.body.slice(0, 160)}`] : [];
    });
    expect(failures).toEqual([]);

    // The process is up and its dependencies answer.
    expect((await api.call('GET', '/api/healthz', { key: null })).statusCode).toBe(200);
    expect((await api.call('GET', '/api/readyz', { key: null })).statusCode).toBe(200);

    // The real runs are exactly as they were: no state change, no event, no decision.
    expect(await snapshotRows(watched)).toEqual(before);
    expect([await rowCount('decisions'), await rowCount('api_keys')]).toEqual([decisionsBefore, keysBefore]);

    // The only new runs are those a valid (if odd) submission created, each answered with its id.
    const created = new Set(requests.flatMap((req, i) => (req.expect === 'may-create' && answers[i]?.statusCode === 202 ? [(JSON.parse(answers[i]?.body ?? '{}') as { id: string }).id] : [])));
    const newRuns = [...(await allRunIds())].filter((id) => !runsBefore.has(id));
    expect(newRuns.sort()).toEqual([...created].sort());
    // Every odd submission creates a run, except the second with the same requestKey (200, the same run).
    expect(created.size).toBeGreaterThanOrEqual(oddSubmissions(FLUX).length - 1);
  });
});
