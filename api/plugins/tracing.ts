/**
 * One server span per HTTP request (`POST /api/runs`, named by route), continuing a caller's W3C
 * `traceparent` when it sends one. The route's handler runs with the span active, so a run it submits takes
 * the span's trace id (src/intake/submit-run.ts) and every log line it writes carries it. A no-op while no
 * tracer provider is registered (src/observability/tracing.ts).
 */
import { context, propagation, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { FastifyInstance, RouteHandlerMethod } from 'fastify';
import { tracer } from '../../src/observability/tracing.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's server span (tracing.ts). */
    otelSpan: Span | null;
  }
}

/** Must be registered before the routes: it wraps each route's handler as the route is added. */
export function registerTracing(app: FastifyInstance): void {
  app.decorateRequest('otelSpan', null);
  app.addHook('onRequest', async (request) => {
    const parent = propagation.extract(context.active(), request.headers);
    const route = request.routeOptions.url ?? 'unknown route';
    request.otelSpan = tracer().startSpan(`${request.method} ${route}`, {
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': request.method, 'http.route': route, 'url.path': request.url.split('?')[0] ?? request.url },
    }, parent);
  });
  app.addHook('onResponse', async (request, reply) => {
    const span = request.otelSpan;
    if (!span) return;
    span.setAttribute('http.response.status_code', reply.statusCode);
    if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
  app.addHook('onRoute', (route) => {
    const handler = route.handler as RouteHandlerMethod;
    route.handler = function tracedHandler(request, reply) {
      const span = request.otelSpan;
      if (!span) return handler.call(this, request, reply);
      return context.with(trace.setSpan(context.active(), span), () => handler.call(this, request, reply));
    };
  });
}
