/**
 * Server-sent events of a run's audit trail. Resumable: a client that reconnects with Last-Event-ID (the
 * header EventSource sends, or ?lastEventId=) gets every event after that id, in order, then live ones.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { VettedError } from '../../src/errors.ts';
import type { RunEventRow } from '../../src/db/schema/index.ts';
import type { EventHub } from '../../src/db/event-hub.ts';
import type { System } from '../../src/system.ts';
import { principal } from '../plugins/auth.ts';
import { commonErrors, eventStreamAnswer, eventsHeaders, eventsQuery, runIdParams } from '../schemas.ts';
import { maskForView } from '../../src/observability/redact.ts';

const HEARTBEAT_MS = 15_000;
const STREAM_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' };

function startingAfter(request: FastifyRequest<{ Querystring: { lastEventId?: string } }>): bigint {
  const header = request.headers['last-event-id'];
  const raw = (Array.isArray(header) ? header[0] : header) ?? request.query.lastEventId ?? '0';
  // Event ids are PostgreSQL bigints: anything longer than 18 digits could overflow the comparison.
  if (!/^[0-9]{1,18}$/.test(raw)) throw new VettedError('INVALID_REQUEST', 'Last-Event-ID must be an event id this stream sent', { field: 'last-event-id' });
  return BigInt(raw);
}

function frame(event: RunEventRow): string {
  const data = JSON.stringify({ id: String(event.id), runId: event.runId, type: event.type, actor: event.actor, at: event.at.toISOString(), data: maskForView(event.data), traceId: event.traceId, threadId: event.threadId });
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${data}\n\n`;
}

export function registerEventRoutes(app: FastifyInstance, system: System, hub: EventHub): void {
  app.get<{ Params: { id: string }; Querystring: { lastEventId?: string } }>('/api/runs/:id/events', {
    config: { permission: 'runs:read' },
    schema: {
      operationId: 'streamRunEvents',
      tags: ['runs'],
      summary: "Server-sent events of the run's events, resumable with Last-Event-ID",
      params: runIdParams,
      querystring: eventsQuery,
      headers: eventsHeaders,
      response: { 200: eventStreamAnswer, ...commonErrors },
    },
  }, async (request, reply) => {
    const run = await system.store.get(request.params.id, principal(request).tenantId);
    if (!run) throw new VettedError('RUN_NOT_FOUND', `No run ${request.params.id}`, { field: 'id' });
    let last = startingAfter(request);

    reply.hijack();
    const out = reply.raw;
    for (const [name, value] of Object.entries(STREAM_HEADERS)) out.setHeader(name, value);
    out.writeHead(200);
    out.write('retry: 2000\n\n');

    // Flushes are serialised: a wake during a flush schedules exactly one more.
    let flushing: Promise<void> = Promise.resolve();
    let closed = false;
    const flush = () => {
      flushing = flushing.then(async () => {
        if (closed) return;
        for (const event of await system.store.events(run.id, { afterId: last })) {
          out.write(frame(event));
          last = event.id;
        }
      }).catch((error: unknown) => request.log.warn({ err: error, runId: run.id }, 'event stream flush failed; will retry on the next wake'));
    };
    const unsubscribe = hub.subscribe(run.id, flush);
    const heartbeat = setInterval(() => out.write(': keep-alive\n\n'), HEARTBEAT_MS);
    request.raw.on('close', () => {
      closed = true;
      clearInterval(heartbeat);
      unsubscribe();
    });
    flush();
  });
}
