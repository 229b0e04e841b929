/**
 * One Fastify route as an OpenAPI operation: its parameters, body and answers come from the route's own
 * schema (the one Fastify validates with), and the answers every route of its kind can give are added from
 * what the route is: behind an API key (401, 403), rate limited (429), taking input (400), taking a body
 * (413, 415), with path parameters (414), needing PostgreSQL or Redis (503).
 */
import type { RouteOptions } from 'fastify';
import { VettedError } from '../../src/errors.ts';
import { contractId, SCHEMA_ID_BASE } from '../../src/schema/contracts.ts';
import { routeDependencies } from '../plugins/dependencies.ts';
import { isRateLimited } from '../plugins/rate-limit.ts';
import { problemResponseName } from './responses.ts';
import { isObject, toOpenApiSchema, type ComponentNames, type JsonSchema } from './schema-conversion.ts';

/** What the document needs to know of a route (a slice of Fastify's RouteOptions). */
export type RouteRecord = Pick<RouteOptions, 'url' | 'schema' | 'config'> & { method: string };

export interface OperationContext {
  names: ComponentNames;
  /** Hears every schema component an operation refers to. */
  onRef: (name: string) => void;
}

const PROBLEM_REF = contractId('problem');
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** `/api/runs/:id/decision` → `/api/runs/{id}/decision` */
export function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)(\([^)]*\))?/g, '{$1}');
}

/**
 * Every documented route names its operation: generated clients call methods by these names, so a name derived
 * from the path (`postApiTasks`) would leak into every client and change whenever the path does.
 */
function operationIdOf(schema: RouteDocSchema, method: string, path: string): string {
  if (!schema.operationId) throw new Error(`${method} ${path} has no operationId: name it in the route's schema (a verb and a noun, like submitTask)`);
  return schema.operationId;
}

export function buildOperation(route: RouteRecord, context: OperationContext): Record<string, unknown> {
  const schema = (route.schema ?? {}) as RouteDocSchema;
  const path = openApiPath(route.url);
  const convert = (value: unknown) => toOpenApiSchema(value, context.names, SCHEMA_ID_BASE, context.onRef);
  const permission = route.config?.permission;
  const parameters = [
    ...parametersOf(schema.params, 'path', convert),
    ...parametersOf(schema.querystring, 'query', convert),
    ...parametersOf(schema.headers, 'header', convert),
  ];
  const bodySchema = schema.body === undefined ? undefined : convert(schema.body);
  const combinations = queryCombinations(schema.querystring);
  const description = [
    schema.description,
    combinations ? `Give at least one of these query parameter sets: ${combinations.map((set) => set.join(' + ')).join('; ')}.` : undefined,
    permission ? `Needs an API key with the \`${permission}\` permission.` : undefined,
  ].filter(Boolean).join('\n\n');
  return {
    operationId: operationIdOf(schema, route.method, path),
    tags: schema.tags ?? [path.split('/')[2] ?? 'system'],
    summary: schema.summary ?? `${route.method} ${path}`,
    ...(description ? { description } : {}),
    ...(permission ? { 'x-permission': permission } : {}),
    // Parameters are listed one by one; which combinations the query must hold, machine-readable.
    ...(combinations ? { 'x-query-requires-one-of': combinations } : {}),
    security: permission ? [{ apiKey: [] }] : [],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(bodySchema ? { requestBody: requestBodyOf(bodySchema) } : {}),
    responses: responsesOf(route, schema, convert),
    ...(schema.openapi ?? {}),
  };
}

/** The route schema as Vetted's routes write it: Fastify's parts plus the document's own fields. */
export interface RouteDocSchema {
  params?: unknown;
  querystring?: unknown;
  headers?: unknown;
  body?: unknown;
  response?: Record<string, unknown>;
  operationId?: string;
  tags?: string[];
  summary?: string;
  description?: string;
  /** Operation fields Fastify cannot validate (a raw body's shape, for one): merged into the operation as they are. */
  openapi?: Record<string, unknown>;
}

/** `anyOf: [{ required: [a] }, { required: [b] }]` on a query schema: the parameter sets of which one is needed. */
function queryCombinations(objectSchema: unknown): string[][] | undefined {
  const anyOf = isObject(objectSchema) ? objectSchema.anyOf : undefined;
  if (!Array.isArray(anyOf)) return undefined;
  return anyOf.map((branch) => {
    const required = isObject(branch) ? branch.required : undefined;
    if (!Array.isArray(required) || Object.keys(branch as object).length !== 1) {
      throw new VettedError('INTERNAL', 'OpenAPI: a query schema may combine parameters only as anyOf: [{ required: [...] }, ...]');
    }
    return required as string[];
  });
}

function parametersOf(objectSchema: unknown, where: 'path' | 'query' | 'header', convert: (value: unknown) => JsonSchema): JsonSchema[] {
  if (objectSchema === undefined) return [];
  if (!isObject(objectSchema) || !isObject(objectSchema.properties)) {
    throw new VettedError('INTERNAL', `OpenAPI: a ${where} schema must be an object schema with properties`);
  }
  const required = new Set((objectSchema.required as string[] | undefined) ?? []);
  return Object.entries(objectSchema.properties).map(([name, property]) => {
    const converted = convert(property);
    const { description, ...rest } = converted;
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
      // Lists in a query string repeat the name: ?status=queued&status=failed.
      ...(where === 'query' && rest.type === 'array' ? { style: 'form', explode: true } : {}),
    };
  });
}

function requestBodyOf(schema: JsonSchema): Record<string, unknown> {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return {
    // A body that may be null (pause, resume, claim) may also be left out.
    required: !types.includes('null'),
    content: { 'application/json': { schema } },
  };
}

function responsesOf(route: RouteRecord, schema: RouteDocSchema, convert: (value: unknown) => JsonSchema): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const [status, answer] of Object.entries(schema.response ?? {})) {
    responses[status] = declaredResponse(Number(status), answer, convert);
  }
  for (const status of impliedErrors(route, schema)) {
    responses[String(status)] ??= { $ref: `#/components/responses/${problemResponseName(status)}` };
  }
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
}

function declaredResponse(status: number, answer: unknown, convert: (value: unknown) => JsonSchema): Record<string, unknown> {
  if (!isObject(answer)) throw new VettedError('INTERNAL', `OpenAPI: the ${status} answer must be a schema`);
  if (answer.$ref === PROBLEM_REF) return { $ref: `#/components/responses/${problemResponseName(status)}` };
  if (isObject(answer.content)) {
    const content = Object.fromEntries(
      Object.entries(answer.content).map(([mediaType, media]) => [mediaType, { ...(media as JsonSchema), schema: convert((media as JsonSchema).schema ?? {}) }]),
    );
    return { description: String(answer.description ?? defaultDescription(status)), content };
  }
  const converted = convert(answer);
  return { description: typeof converted.description === 'string' ? converted.description : defaultDescription(status), content: { 'application/json': { schema: converted } } };
}

function defaultDescription(status: number): string {
  if (status === 201 || status === 202) return 'Accepted';
  return status < 300 ? 'OK' : 'The answer';
}

/** The error statuses a route can answer whatever its handler does, from what the route is. */
function impliedErrors(route: RouteRecord, schema: RouteDocSchema): number[] {
  // Every route refuses a query parameter it does not name (parameters.ts), so every route can answer 400.
  const statuses: number[] = [400];
  const takesBody = BODY_METHODS.has(route.method);
  if (route.config?.permission) statuses.push(401, 403);
  if (takesBody) statuses.push(413, 415);
  if (schema.params) statuses.push(414);
  if (isRateLimited(route.url)) statuses.push(429);
  if (routeDependencies(route.config).length > 0) statuses.push(503);
  return statuses;
}
