/**
 * Following a run's server-sent events to its end. The stream (GET /api/runs/:id/events) replays every event
 * after Last-Event-ID and then sends live ones, but never closes on its own: the follower ends at the run's
 * terminal event (run.completed, run.failed, run.cancelled, run.expired). When the connection drops, it
 * reconnects with the id of the last event it yielded, so the caller sees every event once, in order: no
 * gaps (the server replays from that id) and no repeats (ids are monotonic; anything not after the last id
 * yielded is skipped).
 *
 * The loop knows nothing of HTTP: it reads through a {@link RunEventSource}, which the client implements with
 * openapi-fetch, and the tests with whatever they like.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { VettedClientError, isVettedApiError, isVettedClientError } from './errors.ts';
import { isTerminalEvent, type RunEvent } from './types.ts';

export interface FollowRunOptions {
  /** Resume after this event id (the `id` of the last event you handled); without it, from the run's first event. */
  lastEventId?: string;
  /** Abort to stop following: the iteration then ends quietly and the connection is closed. */
  signal?: AbortSignal;
  /** Reconnect attempts in a row, without a successful (200) connection between them, before giving up. Default 10. */
  maxReconnectAttempts?: number;
  /** The first reconnect's delay, doubling per failed attempt up to 30 s. Default: the server's `retry:` hint (2 s). */
  reconnectDelayMs?: number;
  /**
   * A connection that sends nothing for this long (not even the server's 15 s keep-alive) is treated as
   * dropped, and the follower reconnects: a half-open connection would otherwise wait forever. Default 45 s.
   */
  idleTimeoutMs?: number;
}

/** Where the follower reads from. */
export interface RunEventSource {
  /**
   * Opens the stream of events after `lastEventId` (all of them when undefined). Throws a VettedApiError for an
   * HTTP refusal; any other error is treated as a dropped connection.
   */
  open(lastEventId: string | undefined, signal: AbortSignal): Promise<ReadableStream<Uint8Array>>;
  /**
   * The run's events after `lastEventId` if the run has already ended, else undefined. Asked once, when the
   * caller resumes from an id: the stream would otherwise wait forever after a terminal event already seen.
   */
  eventsIfEnded(lastEventId: string, signal: AbortSignal): Promise<RunEvent[] | undefined>;
}

const DEFAULT_MAX_RECONNECTS = 10;
const DEFAULT_RETRY_MS = 2_000;
/** Three of the server's keep-alive intervals (api/event-stream.ts writes one every 15 s). */
const DEFAULT_IDLE_TIMEOUT_MS = 45_000;
const MAX_RETRY_MS = 30_000;
const EVENT_ID = /^[0-9]{1,18}$/;

/** Yields the run's events, once each and in order, until its terminal event (inclusive). */
export async function* followRunEvents(source: RunEventSource, options: FollowRunOptions = {}): AsyncGenerator<RunEvent, void, undefined> {
  const { signal } = options;
  const maxReconnects = checkCount(options.maxReconnectAttempts ?? DEFAULT_MAX_RECONNECTS, 'maxReconnectAttempts');
  let lastId = options.lastEventId === undefined ? undefined : checkEventId(options.lastEventId, 'lastEventId');
  let retryMs = options.reconnectDelayMs === undefined ? DEFAULT_RETRY_MS : checkCount(options.reconnectDelayMs, 'reconnectDelayMs');
  const serverMayHint = options.reconnectDelayMs === undefined;
  const idleTimeoutMs = checkCount(options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS, 'idleTimeoutMs');
  let failures = 0;

  if (lastId !== undefined) {
    const ended = await untilAborted(source.eventsIfEnded(lastId, signal ?? new AbortController().signal), signal);
    if (ended === ABORTED) return;
    if (ended) {
      for (const event of ended) if (isAfter(event.id, lastId)) yield event;
      return;
    }
  }

  while (!signal?.aborted) {
    const connection = linkedController(signal);
    try {
      const body = await source.open(lastId, connection.controller.signal);
      failures = 0;
      for await (const event of readEvents(body, idleTimeoutMs, (ms) => { if (serverMayHint) retryMs = ms; })) {
        if (!isAfter(event.id, lastId)) continue;
        lastId = event.id;
        yield event;
        if (isTerminalEvent(event)) return;
      }
      // The server closed the stream before the run ended (a restart, a proxy's idle timeout): reconnect.
    } catch (error) {
      if (signal?.aborted) return;
      if (!isRetryable(error)) throw error;
      failures += 1;
      if (failures > maxReconnects) {
        throw new VettedClientError('EVENT_STREAM_UNAVAILABLE', `The run's event stream failed ${failures} times in a row: ${describe(error)}`, { cause: error });
      }
    } finally {
      connection.dispose();
    }
    if ((await sleep(Math.min(retryMs * 2 ** Math.max(0, failures - 1), MAX_RETRY_MS), signal)) === ABORTED) return;
  }
}

/** Parses SSE frames into run events, one read at a time, so a consumer's pace is the stream's pace. */
async function* readEvents(body: ReadableStream<Uint8Array>, idleTimeoutMs: number, onRetry: (ms: number) => void): AsyncGenerator<RunEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parsed: RunEvent[] = [];
  const parser = createParser({ onEvent: (message) => parsed.push(toRunEvent(message)), onRetry });
  try {
    for (;;) {
      const { value, done } = await readWithin(reader, idleTimeoutMs);
      if (done) return;
      parser.feed(decoder.decode(value, { stream: true }));
      while (parsed.length > 0) yield parsed.shift()!;
    }
  } finally {
    reader.releaseLock();
  }
}

/** One read, or an error (a retryable one: the connection is presumed dead) when nothing arrives in time. */
async function readWithin(reader: ReadableStreamDefaultReader<Uint8Array>, ms: number): Promise<Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']>>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const silence = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`the event stream sent nothing for ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([reader.read(), silence]);
  } finally {
    clearTimeout(timer);
  }
}

function toRunEvent(message: EventSourceMessage): RunEvent {
  let event: RunEvent;
  try {
    event = JSON.parse(message.data) as RunEvent;
  } catch {
    throw new VettedClientError('EVENT_STREAM_INVALID', `An event frame's data is not JSON (id ${message.id ?? 'none'})`, { field: 'data' });
  }
  const id = message.id ?? event?.id;
  if (typeof id !== 'string' || !EVENT_ID.test(id) || typeof event?.type !== 'string') {
    throw new VettedClientError('EVENT_STREAM_INVALID', 'An event frame has no event id or type', { field: 'id' });
  }
  return { ...event, id };
}

/** True when `id` comes after `lastId` (ids are PostgreSQL bigints, so they are compared as such). */
function isAfter(id: string, lastId: string | undefined): boolean {
  return lastId === undefined || BigInt(id) > BigInt(lastId);
}

/** A refusal (4xx, but for a timeout or a rate limit) will be refused again: only other failures are retried. */
function isRetryable(error: unknown): boolean {
  if (isVettedApiError(error)) return error.status === 408 || error.status === 429 || error.status >= 500;
  return !isVettedClientError(error) || error.code === 'NETWORK_ERROR';
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function checkEventId(value: string, field: string): string {
  if (typeof value !== 'string' || !EVENT_ID.test(value)) throw new VettedClientError('INVALID_OPTION', `${field} must be an event id the stream sent (digits), got ${JSON.stringify(value)}`, { field });
  return value;
}

function checkCount(value: number, field: string): number {
  if (!Number.isInteger(value) || value < 0) throw new VettedClientError('INVALID_OPTION', `${field} must be a whole number, 0 or more, got ${String(value)}`, { field });
  return value;
}

/** An AbortController for one connection that also aborts when the caller's signal does. */
function linkedController(outer: AbortSignal | undefined): { controller: AbortController; dispose(): void } {
  const controller = new AbortController();
  const onAbort = () => controller.abort(outer?.reason);
  outer?.addEventListener('abort', onAbort, { once: true });
  return {
    controller,
    dispose() {
      outer?.removeEventListener('abort', onAbort);
      controller.abort();
    },
  };
}

const ABORTED = Symbol('aborted');

/** Waits, or stops waiting (and clears its timer) as soon as the caller aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void | typeof ABORTED> {
  if (signal?.aborted) return Promise.resolve(ABORTED);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(ABORTED);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T | typeof ABORTED> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.resolve(ABORTED);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(ABORTED);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
