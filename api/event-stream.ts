/**
 * Server-sent events over the audit table, shared by the per-run stream (GET /api/runs/:id/events) and the
 * tenant's review feed (GET /api/reviews/events): the table is the truth, a wake only says "look again", and a
 * client that reconnects with Last-Event-ID (the header EventSource sends, or ?lastEventId=) gets every event
 * after that id, in order, then live ones.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RunEventRow } from '../src/engine/run-rows.ts';
import type { Wake } from '../src/engine/event-hub.ts';
import { VettedError } from '../src/errors.ts';

const HEARTBEAT_MS = 15_000;

// Set one by one before writeHead (not passed to it), so the test suite's conformance hook sees the media type.
const STREAM_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' };

/** The id after which the client wants events, or undefined when it named none. */
export function lastEventIdOf(request: FastifyRequest<{ Querystring: { lastEventId?: string } }>): bigint | undefined {
  const header = request.headers['last-event-id'];
  const raw = (Array.isArray(header) ? header[0] : header) ?? request.query.lastEventId;
  if (raw === undefined) return undefined;
  // Event ids are PostgreSQL bigints: anything longer than 18 digits could overflow the comparison.
  if (!/^[0-9]{1,18}$/.test(raw)) throw new VettedError('INVALID_REQUEST', 'Last-Event-ID must be an event id this stream sent', { field: 'last-event-id' });
  return BigInt(raw);
}

function eventView(event: RunEventRow) {
  return { id: String(event.id), runId: event.runId, type: event.type, actor: event.actor, at: event.at.toISOString(), data: event.data, traceId: event.traceId, threadId: event.threadId };
}

function frame(view: ReturnType<typeof eventView>): string {
  return `id: ${view.id}\nevent: ${view.type}\ndata: ${JSON.stringify(view)}\n\n`;
}

export interface EventSourceSpec {
  /** Start after this event id. */
  after: bigint;
  /** Registers the wake with the event hub; returns the unsubscribe function. */
  subscribe(wake: Wake): () => void;
  /** The events after an id, oldest first. */
  read(afterId: bigint): Promise<RunEventRow[]>;
  /** The events as they may leave the server (api/plugins/answer-masking.ts maskedFor): a stream is an answer too. */
  mask<T>(value: T): Promise<T>;
}

/** Hijacks the reply and streams events until the client goes away. */
export function streamEvents(request: FastifyRequest, reply: FastifyReply, spec: EventSourceSpec): void {
  let last = spec.after;
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
      const events = await spec.read(last);
      for (const view of await spec.mask(events.map(eventView))) out.write(frame(view));
      if (events.length > 0) last = events.at(-1)!.id;
    }).catch((error: unknown) => request.log.warn({ err: error }, 'event stream flush failed; will retry on the next wake'));
  };
  const unsubscribe = spec.subscribe(flush);
  const heartbeat = setInterval(() => out.write(': keep-alive\n\n'), HEARTBEAT_MS);
  request.raw.on('close', () => {
    closed = true;
    clearInterval(heartbeat);
    unsubscribe();
  });
  flush();
}
