/**
 * Server-sent events over the audit table, shared by the per-run stream (GET /api/runs/:id/events) and the
 * tenant's review feed (GET /api/reviews/events): the table is the truth, a wake only says "look again", and a
 * client that reconnects with Last-Event-ID (the header EventSource sends, or ?lastEventId=) gets every event
 * after that id, in order, then live ones. Ids are taken at insert and commit in any order, so an event is sent
 * only once no lower id can still commit (api/settled-events.ts): a follower never skips one.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RunEventRow } from '../src/engine/run-rows.ts';
import type { TransactionSnapshot, Wake } from '../src/engine/event-hub.ts';
import { VettedError } from '../src/errors.ts';
import { settledMarks } from './settled-events.ts';

const HEARTBEAT_MS = 15_000;
/** While events wait for a lower id's transaction to end, the stream looks again this often. */
const SETTLE_RETRY_MS = 250;

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
  /** The transactions running now (EventHub.transactions): an event leaves only once no lower id can commit. */
  transactions(): Promise<TransactionSnapshot>;
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
  let retry: NodeJS.Timeout | undefined;
  const marks = settledMarks(spec.after);
  /** Sends the read events every lower id of which is settled (api/settled-events.ts); the rest wait. */
  const round = async () => {
    const settled = marks.settle(await spec.transactions());
    const events = await spec.read(last);
    if (events.length > 0) marks.saw(events.at(-1)!.id, await spec.transactions());
    const ready = events.filter((event) => event.id <= settled);
    for (const view of await spec.mask(ready.map(eventView))) out.write(frame(view));
    if (ready.length > 0) last = ready.at(-1)!.id;
  };
  const flush = () => {
    flushing = flushing.then(async () => {
      if (closed) return;
      await round();
      // Usually the transactions seen just after the read have ended by now: a second round sends the events.
      if (marks.waiting() && !closed) await round();
      if (marks.waiting() && !closed && !retry) {
        retry = setTimeout(() => {
          retry = undefined;
          flush();
        }, SETTLE_RETRY_MS);
      }
    }).catch((error: unknown) => request.log.warn({ err: error }, 'event stream flush failed; will retry on the next wake'));
  };
  const unsubscribe = spec.subscribe(flush);
  const heartbeat = setInterval(() => out.write(': keep-alive\n\n'), HEARTBEAT_MS);
  request.raw.on('close', () => {
    closed = true;
    clearInterval(heartbeat);
    clearTimeout(retry);
    unsubscribe();
  });
  flush();
}
