/**
 * A local server that speaks the part of fal's queue API Vetted uses, for tests and the demo, driven through
 * the real `@fal-ai/client` (its requests are pointed here instead of https://queue.fal.run):
 *
 *   POST /{endpoint}                                  submit: { request_id, status: IN_QUEUE, … urls }
 *   GET  /{owner}/{alias}/requests/{id}/status        IN_QUEUE → IN_PROGRESS → COMPLETED
 *   GET  /{owner}/{alias}/requests/{id}               the result: { images: [{ url }], seed, prompt }
 *   PUT  /{owner}/{alias}/requests/{id}/cancel        cancel a request that has not completed
 *
 * fal reads status, result and cancel under the endpoint's first two segments (fal-ai/flux for
 * fal-ai/flux/dev), as the client sends them. An input with `"sim:fail"` in its prompt ends in a 422 result.
 * `submitted()` is the log of submissions, so tests can prove a run was never executed twice.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createSimApp, listen, type SimListenOptions } from './http.ts';

export interface FalSimOptions extends SimListenOptions {
  /** Status polls before a request completes (default 1; 0 = completed at once). */
  pollsToComplete?: number;
  /** When set, any other `Authorization: Key …` gets 401. */
  apiKey?: string;
}

export interface FalSubmission {
  requestId: string;
  endpoint: string;
  input: Record<string, unknown>;
  status: 'IN_QUEUE' | 'IN_PROGRESS' | 'COMPLETED' | 'CANCELLED';
  polls: number;
}

export interface FalSim {
  /** The queue origin to send the client's requests to (stands for https://queue.fal.run). */
  readonly baseUrl: string;
  submitted(): FalSubmission[];
  /** The next `count` submissions answer `status` and queue nothing. */
  failNextSubmits(count: number, status: number): void;
  close(): Promise<void>;
}

export async function startFalSim(options: FalSimOptions = {}): Promise<FalSim> {
  const app = createSimApp();
  const requests = new Map<string, FalSubmission>();
  const pollsToComplete = options.pollsToComplete ?? 1;
  let failing = { count: 0, status: 503 };
  let next = 0;
  let origin = '';

  app.addHook('onRequest', async (request, reply) => {
    if (options.apiKey === undefined) return;
    if (request.headers.authorization !== `Key ${options.apiKey}`) await reply.code(401).send({ detail: 'Invalid key' });
  });

  const urls = (endpoint: string, id: string) => {
    const base = `${origin}/${endpoint.split('/').slice(0, 2).join('/')}/requests/${id}`;
    return { response_url: base, status_url: `${base}/status`, cancel_url: `${base}/cancel` };
  };

  app.post('/*', async (request: FastifyRequest, reply: FastifyReply) => {
    const endpoint = (request.params as { '*': string })['*'].replace(/\/$/, '');
    if (failing.count > 0) {
      failing = { ...failing, count: failing.count - 1 };
      return reply.code(failing.status).send({ detail: 'sim: submission refused' });
    }
    next += 1;
    const requestId = `sim-fal-${next.toString().padStart(6, '0')}`;
    const input = (request.body ?? {}) as Record<string, unknown>;
    requests.set(requestId, { requestId, endpoint, input, status: pollsToComplete === 0 ? 'COMPLETED' : 'IN_QUEUE', polls: 0 });
    return { request_id: requestId, status: 'IN_QUEUE', queue_position: 0, ...urls(endpoint, requestId) };
  });

  const find = (request: FastifyRequest, reply: FastifyReply): FalSubmission | undefined => {
    const found = requests.get((request.params as { id: string }).id);
    if (!found) void reply.code(404).send({ detail: 'Request not found' });
    return found;
  };

  app.get('/:owner/:alias/requests/:id/status', async (request, reply) => {
    const found = find(request, reply);
    if (!found) return reply;
    if (found.status === 'IN_QUEUE' || found.status === 'IN_PROGRESS') {
      found.polls += 1;
      found.status = found.polls >= pollsToComplete ? 'COMPLETED' : 'IN_PROGRESS';
    }
    return { status: found.status === 'CANCELLED' ? 'COMPLETED' : found.status, request_id: found.requestId, ...urls(found.endpoint, found.requestId) };
  });

  app.get('/:owner/:alias/requests/:id', async (request, reply) => {
    const found = find(request, reply);
    if (!found) return reply;
    if (found.status === 'CANCELLED') return reply.code(400).send({ detail: 'Request was cancelled' });
    if (found.status !== 'COMPLETED') return reply.code(400).send({ detail: 'Request is still in progress' });
    const prompt = typeof found.input.prompt === 'string' ? found.input.prompt : '';
    if (prompt.includes('sim:fail')) return reply.code(422).send({ detail: [{ loc: ['body', 'prompt'], msg: 'sim: the model refused the prompt', type: 'value_error' }] });
    return { images: [{ url: `${origin}/files/${found.requestId}.png`, width: 1024, height: 768, content_type: 'image/png' }], seed: 42, prompt };
  });

  app.put('/:owner/:alias/requests/:id/cancel', async (request, reply) => {
    const found = find(request, reply);
    if (!found) return reply;
    if (found.status === 'COMPLETED') return reply.code(400).send({ detail: 'Request already completed' });
    found.status = 'CANCELLED';
    return { status: 'CANCELLATION_REQUESTED' };
  });

  origin = await listen(app, options);
  return {
    baseUrl: origin,
    submitted: () => [...requests.values()].map((entry) => ({ ...entry, input: structuredClone(entry.input) })),
    failNextSubmits(count, status) {
      failing = { count, status };
    },
    close: () => app.close(),
  };
}
