/**
 * `Idempotency-Key` as the sims honour it, the way payment-grade APIs do: the first request with a key runs and
 * its successful answer is stored; a later request with the same key gets the stored answer (status, body,
 * content type) and runs nothing; a request arriving while the first is still running gets 409, which the
 * SDKs retry. A failed answer is not stored: nothing ran, so the key may run again.
 *
 * `executions` counts what really ran, `replays` what was answered from the store: the figures the tests read
 * to prove that a retry after a crash did not run the model twice.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

export interface SimAnswer {
  status: number;
  body: unknown;
  contentType?: string;
  headers?: Record<string, string>;
  /** Store the answer under the key but send this one instead, once (a response lost after the work was done). */
  lose?: { status: number; body: unknown };
}

export interface IdempotencyStore {
  readonly executions: { route: string; key: string | null; body: unknown }[];
  readonly replays: { route: string; key: string }[];
  /** Runs `work` once per key (or every time, for a request without a key) and sends its answer. */
  answer(request: FastifyRequest, reply: FastifyReply, route: string, body: unknown, work: () => Promise<SimAnswer>): Promise<FastifyReply>;
}

export function createIdempotencyStore(): IdempotencyStore {
  const done = new Map<string, SimAnswer>();
  const running = new Set<string>();
  const executions: IdempotencyStore['executions'] = [];
  const replays: IdempotencyStore['replays'] = [];
  const send = (reply: FastifyReply, answer: { status: number; body: unknown; contentType?: string; headers?: Record<string, string> }) => {
    if (answer.contentType) void reply.type(answer.contentType);
    if (answer.headers) void reply.headers(answer.headers);
    return reply.code(answer.status).send(answer.body);
  };
  return {
    executions,
    replays,
    async answer(request, reply, route, body, work) {
      const header = request.headers['idempotency-key'];
      const key = typeof header === 'string' && header !== '' ? header : null;
      if (key !== null) {
        const stored = done.get(key);
        if (stored) {
          replays.push({ route, key });
          return send(reply.header('idempotent-replayed', 'true'), stored);
        }
        if (running.has(key)) return reply.code(409).send({ error: { message: 'A request with this Idempotency-Key is in progress', type: 'idempotency_error', param: null, code: null } });
        running.add(key);
      }
      try {
        const answer = await work();
        if (answer.status < 300) executions.push({ route, key, body });
        if (key !== null && answer.status < 300) done.set(key, { status: answer.status, body: answer.body, ...(answer.contentType ? { contentType: answer.contentType } : {}) });
        return await send(reply, answer.lose ?? answer);
      } finally {
        if (key !== null) running.delete(key);
      }
    },
  };
}
