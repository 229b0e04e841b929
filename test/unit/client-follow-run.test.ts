/**
 * The client's run follower against a local SSE server that behaves like GET /api/runs/:id/events (replay after
 * Last-Event-ID, then live, never closing on its own) and misbehaves on demand: drops connections mid-stream,
 * ends them cleanly, replays ids already sent, answers 503 or 404.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createVettedClient, isVettedApiError, isVettedClientError, type RunEvent, type VettedClientError } from '../../clients/typescript/src/index.ts';

const RUN_ID = '0b0c4a7e-52a8-4d39-9a57-2f1d7f0e8b11';
const TYPES = ['run.created', 'stage.completed', 'stage.completed', 'stage.completed', 'review.created', 'review.decided', 'run.resumed', 'run.completed'] as const;
/** The run's audit trail: ids 11, 12, … (not 1, so "after" is tested on real numbers, not positions). */
const TRAIL = TYPES.map((type, index) => ({ id: String(11 + index), runId: RUN_ID, type, actor: 'system', at: new Date(0).toISOString(), data: {}, traceId: 't', threadId: 'th' }));

interface Connection {
  lastEventId: string | undefined;
  authorization: string | undefined;
  closed: Promise<void>;
}

/** How the server answers connection number n (0-based): which events to send, and what to do after. */
type Script = (n: number, after: number, request: IncomingMessage, response: ServerResponse) => void;

let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

function frame(event: (typeof TRAIL)[number]): string {
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** Writes the trail after `after`, up to (not including) index `until`, then does `then`. */
function send(response: ServerResponse, after: number, until: number, then: 'drop' | 'end' | 'hang'): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  response.write('retry: 2000\n\n');
  for (const event of TRAIL.slice(0, until)) if (Number(event.id) > after) response.write(frame(event));
  if (then === 'drop') setTimeout(() => response.socket?.destroy(), 20);
  if (then === 'end') response.end();
}

/** Serves the stream by `script`, and GET /api/runs/:id/state with the run in `status` (its trail so far). */
async function serve(script: Script, status: 'completed' | 'awaiting_human' = 'completed'): Promise<{ baseUrl: string; connections: Connection[]; stateCalls: number[] }> {
  const connections: Connection[] = [];
  const stateCalls: number[] = [];
  server = createServer((request, response) => {
    if (request.url === `/api/runs/${RUN_ID}/state`) {
      stateCalls.push(1);
      response.writeHead(200, { 'content-type': 'application/json' });
      return response.end(JSON.stringify({ run: { status }, events: status === 'completed' ? TRAIL : TRAIL.slice(0, 5) }));
    }
    const header = request.headers['last-event-id'];
    connections.push({
      lastEventId: typeof header === 'string' ? header : undefined,
      authorization: request.headers.authorization,
      closed: new Promise((resolve) => response.on('close', () => resolve())),
    });
    script(connections.length - 1, Number(header ?? 0), request, response);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { baseUrl: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, connections, stateCalls };
}

const client = (baseUrl: string) => createVettedClient({ baseUrl, apiKey: 'vt_test.secret' });

async function collect(events: AsyncIterable<RunEvent>, onEvent?: (event: RunEvent) => void): Promise<RunEvent[]> {
  const seen: RunEvent[] = [];
  for await (const event of events) {
    seen.push(event);
    onEvent?.(event);
  }
  return seen;
}

async function failure(promise: Promise<unknown>): Promise<VettedClientError> {
  try {
    await promise;
  } catch (error) {
    if (isVettedClientError(error)) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

describe('followRun', () => {
  it('reconnects after a dropped connection with Last-Event-ID and yields every event once, in order, ending at the terminal event', async () => {
    // Connection 0 drops after three events, connection 1 after five; connection 2 sends the rest and hangs open.
    const { baseUrl, connections } = await serve((n, after, _request, response) => send(response, after, [3, 5, TRAIL.length][n] ?? TRAIL.length, n < 2 ? 'drop' : 'hang'));
    const events = await collect(client(baseUrl).followRun(RUN_ID, { reconnectDelayMs: 10 }));
    expect(events.map((e) => e.id)).toEqual(TRAIL.map((e) => e.id));
    expect(events.at(-1)!.type).toBe('run.completed');
    expect(connections.map((c) => c.lastEventId)).toEqual([undefined, '13', '15']);
    expect(connections.every((c) => c.authorization === 'Bearer vt_test.secret')).toBe(true);
    // Ending at the terminal event closes the last connection (the server never closes it itself).
    await connections[2]!.closed;
  });

  it('skips events it already yielded when a server replays them, and reconnects after a clean end of stream', async () => {
    // Connection 0 ends cleanly after four events; connection 1 ignores Last-Event-ID and replays from the start.
    const { baseUrl, connections } = await serve((n, _after, _request, response) => send(response, 0, n === 0 ? 4 : TRAIL.length, n === 0 ? 'end' : 'hang'));
    const events = await collect(client(baseUrl).followRun(RUN_ID, { reconnectDelayMs: 10 }));
    expect(events.map((e) => e.id)).toEqual(TRAIL.map((e) => e.id));
    expect(connections.map((c) => c.lastEventId)).toEqual([undefined, '14']);
  });

  it('resumes from a lastEventId the caller kept', async () => {
    // A run still parked: its state says so, so the follower connects from the id.
    const { baseUrl, connections, stateCalls } = await serve((_n, after, _request, response) => send(response, after, TRAIL.length, 'hang'), 'awaiting_human');
    const events = await collect(client(baseUrl).followRun(RUN_ID, { lastEventId: '15' }));
    expect(events.map((e) => e.id)).toEqual(['16', '17', '18']);
    expect(connections.map((c) => c.lastEventId)).toEqual(['15']);
    expect(stateCalls).toHaveLength(1);
  });

  it('resuming after a run ended reads the rest from the run state and ends, instead of waiting on a stream that has nothing more', async () => {
    const { baseUrl, connections, stateCalls } = await serve((_n, after, _request, response) => send(response, after, TRAIL.length, 'hang'));
    expect((await collect(client(baseUrl).followRun(RUN_ID, { lastEventId: '18' }))).map((e) => e.id)).toEqual([]);
    expect((await collect(client(baseUrl).followRun(RUN_ID, { lastEventId: '16' }))).map((e) => e.id)).toEqual(['17', '18']);
    expect(stateCalls).toHaveLength(2);
    expect(connections).toHaveLength(0);
  });

  it('retries a 503 and gives up after maxReconnectAttempts failures in a row, with EVENT_STREAM_UNAVAILABLE', async () => {
    const unavailable = (response: ServerResponse) => {
      response.writeHead(503, { 'content-type': 'application/problem+json' });
      response.end(JSON.stringify({ type: 'x', title: 'A backing service is unavailable', status: 503, code: 'SERVICE_UNAVAILABLE', detail: 'redis down' }));
    };
    const flaky = await serve((n, after, _request, response) => (n === 0 ? unavailable(response) : send(response, after, TRAIL.length, 'hang')));
    expect((await collect(client(flaky.baseUrl).followRun(RUN_ID, { reconnectDelayMs: 10 }))).map((e) => e.id)).toEqual(TRAIL.map((e) => e.id));
    expect(flaky.connections).toHaveLength(2);
    server!.closeAllConnections();
    await new Promise((resolve) => server!.close(resolve));

    const down = await serve((_n, _after, _request, response) => unavailable(response));
    const error = await failure(collect(client(down.baseUrl).followRun(RUN_ID, { reconnectDelayMs: 5, maxReconnectAttempts: 2 })));
    expect(error.code).toBe('EVENT_STREAM_UNAVAILABLE');
    expect(error.message).toContain('SERVICE_UNAVAILABLE');
    expect(down.connections).toHaveLength(3);
  });

  it('treats a connection that goes silent (no event, no keep-alive) as dropped and resumes after the last event', async () => {
    // Connection 0 sends three events and then nothing at all, as a half-open connection would.
    const { baseUrl, connections } = await serve((n, after, _request, response) => send(response, after, n === 0 ? 3 : TRAIL.length, 'hang'));
    const events = await collect(client(baseUrl).followRun(RUN_ID, { reconnectDelayMs: 10, idleTimeoutMs: 1_000 }));
    expect(events.map((e) => e.id)).toEqual(TRAIL.map((e) => e.id));
    // (A loaded machine may add a reconnect of its own; the one after the silence resumes after event 13.)
    expect(connections[0]!.lastEventId).toBeUndefined();
    expect(connections.map((c) => c.lastEventId)).toContain('13');
    await connections[0]!.closed;
  });

  it('does not retry a refusal: 404 RUN_NOT_FOUND surfaces at once as a VettedApiError naming the field', async () => {
    const { baseUrl, connections } = await serve((_n, _after, _request, response) => {
      response.writeHead(404, { 'content-type': 'application/problem+json' });
      response.end(JSON.stringify({ type: 'x', title: 'No such run', status: 404, code: 'RUN_NOT_FOUND', detail: `No run ${RUN_ID}`, field: 'id' }));
    });
    const error = await failure(collect(client(baseUrl).followRun(RUN_ID, { reconnectDelayMs: 5 })));
    expect(isVettedApiError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'API_ERROR', apiCode: 'RUN_NOT_FOUND', status: 404, field: 'id' });
    expect(connections).toHaveLength(1);
  });

  it('stops quietly and closes the connection when the caller aborts, and when the caller breaks out of the loop', async () => {
    const { baseUrl, connections } = await serve((_n, after, _request, response) => send(response, after, 4, 'hang'));
    const controller = new AbortController();
    const seen = await collect(client(baseUrl).followRun(RUN_ID, { signal: controller.signal }), (event) => {
      if (event.id === '14') controller.abort();
    });
    expect(seen.map((e) => e.id)).toEqual(['11', '12', '13', '14']);
    await connections[0]!.closed;

    for await (const event of client(baseUrl).followRun(RUN_ID)) if (event.id === '12') break;
    await connections[1]!.closed;
  });

  it('refuses a frame that is not a run event, without retrying (the server is not what it should be)', async () => {
    const { baseUrl, connections } = await serve((_n, _after, _request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('id: 11\nevent: run.created\ndata: <html>proxy error</html>\n\n');
    });
    expect(await failure(collect(client(baseUrl).followRun(RUN_ID, { reconnectDelayMs: 5 })))).toMatchObject({ code: 'EVENT_STREAM_INVALID', field: 'data' });
    expect(connections).toHaveLength(1);
  });

  it('refuses bad options by name', async () => {
    const vetted = client('http://127.0.0.1:9');
    expect(await failure(collect(vetted.followRun(RUN_ID, { lastEventId: 'abc' })))).toMatchObject({ code: 'INVALID_OPTION', field: 'lastEventId' });
    expect(await failure(collect(vetted.followRun(RUN_ID, { maxReconnectAttempts: -1 })))).toMatchObject({ code: 'INVALID_OPTION', field: 'maxReconnectAttempts' });
    expect(await failure(collect(vetted.followRun(RUN_ID, { idleTimeoutMs: 1.5 })))).toMatchObject({ code: 'INVALID_OPTION', field: 'idleTimeoutMs' });
    // Approving binds the decision to the payload the reviewer saw: without its hash there is nothing to bind to.
    const { decideReview } = vetted;
    expect(await failure(decideReview({ runId: RUN_ID, reviewId: RUN_ID, payloadHash: '' }, { action: 'approve' }))).toMatchObject({ code: 'INVALID_OPTION', field: 'payloadHash' });
    // An edit of the output binds to the output shown: a review without its outputHash has nothing to bind to.
    expect(await failure(decideReview({ runId: RUN_ID, reviewId: RUN_ID, payloadHash: 'p' }, { action: 'edit_text', text: 'Blue.' }))).toMatchObject({ code: 'INVALID_OPTION', field: 'outputHash' });
    expect(() => createVettedClient({ baseUrl: 'localhost:3000', apiKey: 'k' })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', field: 'baseUrl' }));
    expect(() => createVettedClient({ baseUrl: 'http://localhost:3000', apiKey: ' ' })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', field: 'apiKey' }));
  });

  it('an edit of the output echoes the output hash of the review shown', async () => {
    const bodies: unknown[] = [];
    const { baseUrl } = await serve((_n, _after, request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        bodies.push(JSON.parse(body));
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ route: 'complete', run: { id: RUN_ID, status: 'completed' } }));
      });
    });
    const shown = { runId: RUN_ID, reviewId: RUN_ID, payloadHash: 'p'.repeat(64), outputHash: 'o'.repeat(64) };
    await client(baseUrl).decideReview(shown, { action: 'edit_text', text: 'Blue.' });
    await client(baseUrl).decideReview(shown, { action: 'approve' });
    expect(bodies).toEqual([
      { action: 'edit_text', text: 'Blue.', reviewId: RUN_ID, outputHash: shown.outputHash },
      { action: 'approve', reviewId: RUN_ID, payloadHash: shown.payloadHash },
    ]);
  });

  it('gives up on an unreachable API after its attempts, with the network error as the cause', async () => {
    const error = await failure(collect(client('http://127.0.0.1:9').followRun(RUN_ID, { reconnectDelayMs: 1, maxReconnectAttempts: 1 })));
    expect(error.code).toBe('EVENT_STREAM_UNAVAILABLE');
    expect((error.cause as VettedClientError).code).toBe('NETWORK_ERROR');
  });
});
