/**
 * The OpenAPI 3.1 document, generated from the routes Fastify holds and the contracts in schemas/. It is
 * self-contained: every schema is a component and every `$ref` local. `npm run openapi` writes it to
 * docs/openapi.json; a test fails when that file and the served document differ.
 *
 * A route joins the document by being registered before the docs plugin (api/app.ts registers it last):
 * its operation comes from its `schema` (see operations.ts). Routes with `schema.hide` stay out.
 */
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { loadContractSchemas } from '../../src/schema/contracts.ts';
import { fromPackageRoot } from '../../src/util/package-root.ts';
import { buildOperation, openApiPath, type RouteRecord } from './operations.ts';
import { problemResponse, problemResponseName } from './responses.ts';
import { buildComponents, ComponentNames } from './schema-conversion.ts';

export type OpenApiDocument = Record<string, unknown> & { paths: Record<string, Record<string, Record<string, unknown>>> };

const DOCUMENTED_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

const TAG_DESCRIPTIONS: Record<string, string> = {
  runs: 'Submit generation requests, follow runs (poll or server-sent events), pause, resume and cancel them',
  reviews: 'The review queue: pending and decided reviews, claims, decisions and chat replies',
  shadow: 'Shadow mode: V2 beside V3 reports and leak rates',
  system: 'Health, readiness, providers, metrics and provider webhooks',
  audit: "The tenant's hash-chained audit records, for an auditor to verify",
  keys: "The tenant's API keys (admin): create one (its secret shown once), list them, revoke one",
  settings: "The tenant's retention (admin): how long run documents are kept, and PII masking of stored text",
};

/**
 * Records every route as it is registered (Fastify's onRoute hook). Call it before the routes are
 * registered; the returned list fills as they are.
 */
export function collectRoutes(app: FastifyInstance): RouteRecord[] {
  const routes: RouteRecord[] = [];
  app.addHook('onRoute', (route) => {
    const schema = route.schema as { hide?: boolean } | undefined;
    if (schema?.hide) return;
    for (const method of [route.method].flat()) {
      if (DOCUMENTED_METHODS.includes(method)) routes.push({ method, url: route.url, schema: route.schema, config: route.config });
    }
  });
  return routes;
}

export function buildOpenApiDocument(routes: readonly RouteRecord[]): OpenApiDocument {
  const names = new ComponentNames(loadContractSchemas());
  const used = new Set<string>(['Problem']);
  const errorStatuses = new Set<number>();
  const paths: OpenApiDocument['paths'] = {};
  for (const route of [...routes].sort(byPathThenMethod)) {
    const operation = buildOperation(route, { names, onRef: (name) => used.add(name) });
    for (const [status, answer] of Object.entries(operation.responses as Record<string, { $ref?: string }>)) {
      if (answer.$ref?.startsWith('#/components/responses/')) errorStatuses.add(Number(status));
    }
    (paths[openApiPath(route.url)] ??= {})[route.method.toLowerCase()] = operation;
  }
  const tags = [...new Set(Object.values(paths).flatMap((operations) => Object.values(operations).flatMap((op) => op.tags as string[])))];
  return {
    openapi: '3.1.0',
    info: {
      title: 'Vetted API',
      version: packageVersion(),
      summary: 'Zero-trust, schema-driven payload assembly for AI model runs, with human review built in',
      description:
        'Submit generation requests, follow runs, and resolve the ones parked for a person. Every error is ' +
        '`application/problem+json` with a stable `code` (the catalogue is src/errors.ts) and the offending `field`. ' +
        'Unknown query parameters and body fields are refused, naming them; numbers in query strings are plain ' +
        'decimal digits; text anywhere may not hold U+0000 or an unpaired UTF-16 surrogate (PostgreSQL cannot store ' +
        'them). While PostgreSQL or Redis is away, answers are 503 SERVICE_UNAVAILABLE with Retry-After.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [
      {
        url: 'http://{host}:{port}',
        description: '`vetted api` (HOST and PORT; 127.0.0.1:8080 by default)',
        variables: { host: { default: '127.0.0.1' }, port: { default: '8080' } },
      },
    ],
    security: [{ apiKey: [] }],
    tags: tags.map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? `Operations on ${name}` })),
    paths,
    components: {
      schemas: buildComponents(names, used),
      responses: Object.fromEntries([...errorStatuses].sort((a, b) => a - b).map((status) => [problemResponseName(status), problemResponse(status)])),
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'vt_<id>.<secret>',
          description: 'An API key from `vetted keys create`, bound to a tenant and a role (submitter, reviewer, admin)',
        },
      },
    },
  };
}

function byPathThenMethod(a: RouteRecord, b: RouteRecord): number {
  return a.url.localeCompare(b.url) || DOCUMENTED_METHODS.indexOf(a.method) - DOCUMENTED_METHODS.indexOf(b.method);
}

let version: string | undefined;

function packageVersion(): string {
  const file = fromPackageRoot('package.json');
  version ??= String((JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version);
  return version;
}
