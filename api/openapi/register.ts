/**
 * Serves the document: `/openapi.json` (the exact bytes `npm run openapi` writes to docs/openapi.json) and a
 * browsable page at `/docs`. Registered after every route, so the document holds them all.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { buildOpenApiDocument, type OpenApiDocument } from './document.ts';
import type { RouteRecord } from './operations.ts';

declare module 'fastify' {
  interface FastifySchema {
    /** Operation fields Fastify cannot validate (a raw body's shape): merged into the route's operation as they are. */
    openapi?: Record<string, unknown>;
  }
  interface FastifyInstance {
    /** The OpenAPI document this app serves at /openapi.json. */
    openapiDocument: OpenApiDocument;
  }
}

/** The document as served and as written to docs/openapi.json: two-space JSON and a final newline. */
export function serializeDocument(document: OpenApiDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

export async function registerOpenApi(app: FastifyInstance, routes: readonly RouteRecord[]): Promise<void> {
  const document = buildOpenApiDocument(routes);
  const text = serializeDocument(document);
  app.decorate('openapiDocument', document);
  await app.register(swagger, { mode: 'static', specification: { document: document as never } });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  // Sent as text: the JSON-answer hooks (secret masking) are for data, not for the document's schemas.
  app.get('/openapi.json', { schema: { hide: true } }, async (_request, reply) => reply.type('application/json; charset=utf-8').send(text));
}
