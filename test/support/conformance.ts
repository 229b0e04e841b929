/**
 * The response-conformance hook: every answer an app gives during the integration tests is checked against
 * the OpenAPI document that app serves (status documented for its operation, media type, body against the
 * schema, with AJV in the document's own dialect, JSON Schema 2020-12). Validators are compiled once per
 * operation, status and media type.
 *
 * `attachConformance(app)` records violations as the answers leave (Fastify's onSend, and the connection's
 * close for the event stream, which writes its own frames); the API harness throws on one right after the call that
 * caused it and again when it closes, so a direct `app.inject` or a real-port request is held to it too.
 */
import type { FastifyInstance } from 'fastify';
import type { ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { openApiPath } from '../../api/openapi/operations.ts';

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

const DOCUMENT_ID = 'https://vetted.dev/openapi.json';

type Json = Record<string, unknown>;

export interface Answer {
  method: string;
  /** The route path as Fastify knows it (`/api/runs/:id`), or undefined when no route matched. */
  route: string | undefined;
  url: string;
  status: number;
  contentType: string;
  body: string | undefined;
}

export interface ConformanceChecker {
  /** What is wrong with one answer; empty when it conforms. */
  check(answer: Answer): string[];
}

export function createConformanceChecker(document: Json): ConformanceChecker {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema({ ...document, $id: DOCUMENT_ID });
  const validators = new Map<string, ValidateFunction>();
  const paths = document.paths as Record<string, Record<string, Json>>;
  const responses = ((document.components as Json).responses ?? {}) as Record<string, Json>;

  const validatorAt = (pointer: string): ValidateFunction => {
    let validate = validators.get(pointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer}` });
      validators.set(pointer, validate);
    }
    return validate;
  };

  return {
    check(answer) {
      const at = `${answer.method} ${answer.url.split('?')[0]} → ${answer.status}`;
      if (answer.route === undefined) return unroutedProblems(answer, at);
      const path = openApiPath(answer.route);
      const operation = paths[path]?.[answer.method.toLowerCase()];
      if (!operation) return [`${at}: ${answer.method} ${path} is not in the document`];
      const declared = (operation.responses as Record<string, Json>)[String(answer.status)];
      if (!declared) return [`${at}: status ${answer.status} is not documented for ${answer.method} ${path} (documented: ${Object.keys(operation.responses as Json).join(', ')})`];
      const ref = typeof declared.$ref === 'string' ? declared.$ref : undefined;
      const response = ref ? responses[ref.split('/').pop()!]! : declared;
      const base = ref ? `/components/responses/${ref.split('/').pop()}` : `/paths/${escape(path)}/${answer.method.toLowerCase()}/responses/${answer.status}`;
      const content = (response.content ?? {}) as Record<string, Json>;
      if (Object.keys(content).length === 0) return answer.body ? [`${at}: a body, where the document declares none`] : [];
      const mediaType = Object.keys(content).find((declaredType) => mediaTypeMatches(declaredType, answer.contentType));
      if (!mediaType) return [`${at}: content-type "${answer.contentType}" is not one of ${Object.keys(content).join(', ')}`];
      if (answer.body === undefined) return [];
      const data = isJson(mediaType) ? parse(answer.body) : answer.body;
      if (data instanceof Error) return [`${at}: the ${mediaType} body is not JSON (${data.message})`];
      const validate = validatorAt(`${base}/content/${escape(mediaType)}/schema`);
      if (validate(data)) return [];
      return [`${at}: the body does not fit the documented schema: ${ajv.errorsText(validate.errors, { dataVar: 'body' })}; body ${answer.body.slice(0, 300)}`];
    },
  };
}

/** Answers from no route (unknown path, malformed URL): a 4xx problem. */
function unroutedProblems(answer: Answer, at: string): string[] {
  const problems: string[] = [];
  if (answer.status < 400 || answer.status >= 500) problems.push(`${at}: an answer from no route must be a 4xx`);
  if (!mediaTypeMatches('application/problem+json', answer.contentType)) problems.push(`${at}: an answer from no route must be application/problem+json, not "${answer.contentType}"`);
  return problems;
}

/** `text/plain; version=0.0.4` matches `text/plain; version=0.0.4; charset=utf-8`: same type, declared parameters present. */
function mediaTypeMatches(declared: string, actual: string): boolean {
  const [declaredType, ...declaredParams] = declared.split(';').map((part) => part.trim().toLowerCase());
  const [actualType, ...actualParams] = actual.split(';').map((part) => part.trim().toLowerCase());
  return declaredType === actualType && declaredParams.every((param) => actualParams.includes(param));
}

function isJson(mediaType: string): boolean {
  return /^application\/([a-z.+-]+\+)?json/.test(mediaType);
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    return error as Error;
  }
}

/** A JSON pointer segment. */
function escape(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Violations seen on one app, in order. */
export interface ConformanceLog {
  violations: string[];
  /** Throws with every violation recorded since the last call (and forgets them). */
  assertNone(): void;
}

/**
 * Checks every answer the app gives against the document it serves. Call before `app.ready()`.
 * Routes hidden from the document (the document itself, the docs page) are not checked.
 */
export function attachConformance(app: FastifyInstance): ConformanceLog {
  let checker: ConformanceChecker | undefined;
  const log: ConformanceLog = {
    violations: [],
    assertNone() {
      const found = log.violations.splice(0);
      if (found.length > 0) throw new Error(`answers that do not conform to the OpenAPI document:\n${found.join('\n')}`);
    },
  };
  const record = (answer: Answer) => {
    checker ??= createConformanceChecker(app.openapiDocument as Json);
    log.violations.push(...checker.check(answer));
  };
  const isHidden = (schema: unknown) => (schema as { hide?: boolean } | undefined)?.hide === true;
  const seen = new WeakSet<object>();
  app.addHook('onSend', async (request, reply, payload) => {
    seen.add(request);
    if (request.method === 'HEAD' || isHidden(request.routeOptions.schema)) return payload;
    const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined;
    record({ method: request.method, route: request.routeOptions.url, url: request.url, status: reply.statusCode, contentType: String(reply.getHeader('content-type') ?? ''), body });
    return payload;
  });
  // The event stream hijacks its reply and writes its own frames (no onSend, no onResponse): its status and
  // media type are checked when its connection closes.
  app.addHook('onRequest', async (request, reply) => {
    reply.raw.once('close', () => {
      if (seen.has(request) || request.method === 'HEAD' || isHidden(request.routeOptions.schema) || !reply.raw.headersSent) return;
      record({ method: request.method, route: request.routeOptions.url, url: request.url, status: reply.raw.statusCode, contentType: String(reply.raw.getHeader('content-type') ?? ''), body: undefined });
    });
  });
  return log;
}
