/**
 * A local server that speaks the part of fal's queue API Vetted uses, for tests and the demo, driven through
 * the real `@fal-ai/client` (its requests are pointed here instead of https://queue.fal.run):
 *
 *   POST /{endpoint}                                  submit: { request_id, status: IN_QUEUE, … urls }
 *   GET  /{owner}/{alias}/requests/{id}/status        IN_QUEUE → IN_PROGRESS → COMPLETED
 *   GET  /{owner}/{alias}/requests/{id}               the result: { images: [{ url }], seed, prompt }
 *   PUT  /{owner}/{alias}/requests/{id}/cancel        cancel a request that has not completed
 *   GET  /.well-known/jwks.json                       the public keys its webhooks are signed with (reads counted)
 *
 * A submission with `?fal_webhook=<url>` (the client's `webhookUrl`) gets a webhook there when it completes,
 * signed as fal signs them (fal-webhook-signer.ts); `complete(id)` completes a request at once and awaits
 * that delivery, so a test can end a wait by webhook alone.
 * fal reads status, result and cancel under the endpoint's first two segments (fal-ai/flux for
 * fal-ai/flux/dev), as the client sends them. An input with `"sim:fail"` in its prompt ends in a 422 result.
 * `submitted()` is the log of submissions, so tests can prove a run was never executed twice.
 * `holdNextSubmits` queues a submission but answers it late: a caller killed meanwhile never learns the request
 * id of work fal already has (the crash between submit and recording the handle).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createFalWebhookSigner, type FalWebhookHeaders } from './fal-webhook-signer.ts';
import { createSimApp, delay, listen, type SimListenOptions } from './http.ts';

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
  webhookUrl?: string;
}

/** A webhook the sim sent, and what the receiver answered (0: it could not be reached). */
export interface FalWebhookSent {
  requestId: string;
  url: string;
  status: number;
}

export interface FalSim {
  /** The queue origin to send the client's requests to (stands for https://queue.fal.run). */
  readonly baseUrl: string;
  submitted(): FalSubmission[];
  /** The next `count` submissions answer `status` and queue nothing. */
  failNextSubmits(count: number, status: number): void;
  /** The next `count` submissions are queued at once but answered only after `ms`. */
  holdNextSubmits(count: number, ms: number): void;
  /** Submissions queued and held back now (holdNextSubmits). */
  readonly submitsHeld: number;
  /** fal's JWKS here (stands for https://rest.alpha.fal.ai/.well-known/jwks.json). */
  readonly jwksUrl: string;
  /** Completes a request now; with a webhook URL, sends the signed webhook and answers how it went. */
  complete(requestId: string): Promise<FalWebhookSent | undefined>;
  /** Webhook headers signed with the sim's current key (for tests that send deliveries themselves). */
  signWebhook(requestId: string, body: string, timestampSeconds?: number): FalWebhookHeaders;
  /** Signs with a new key from now on, still publishing the old one. */
  rotateWebhookKey(): void;
  /** Publishes only the current key from now on: a signature by an older one no longer verifies. */
  retireOldWebhookKeys(): void;
  /** How many times the JWKS was read (a verifier's cache shows as few reads). */
  jwksReads(): number;
  webhooksSent(): FalWebhookSent[];
  close(): Promise<void>;
}

const JWKS_PATH = '/.well-known/jwks.json';

export async function startFalSim(options: FalSimOptions = {}): Promise<FalSim> {
  const app = createSimApp();
  const requests = new Map<string, FalSubmission>();
  const pollsToComplete = options.pollsToComplete ?? 1;
  let failing = { count: 0, status: 503 };
  let holding = { count: 0, ms: 0 };
  let inFlight = 0;
  let next = 0;
  let origin = '';
  const signer = createFalWebhookSigner();
  const sent: FalWebhookSent[] = [];
  let jwksReads = 0;

  app.addHook('onRequest', async (request, reply) => {
    if (options.apiKey === undefined || request.url === JWKS_PATH) return;
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
    const webhookUrl = (request.query as { fal_webhook?: string }).fal_webhook;
    const entry: FalSubmission = { requestId, endpoint, input, status: 'IN_QUEUE', polls: 0, ...(webhookUrl ? { webhookUrl } : {}) };
    requests.set(requestId, entry);
    if (pollsToComplete === 0) void completed(entry);
    if (holding.count > 0) {
      holding = { ...holding, count: holding.count - 1 };
      inFlight += 1;
      try {
        await delay(holding.ms);
      } finally {
        inFlight -= 1;
      }
    }
    return { request_id: requestId, status: 'IN_QUEUE', queue_position: 0, ...urls(endpoint, requestId) };
  });

  const find = (request: FastifyRequest, reply: FastifyReply): FalSubmission | undefined => {
    const found = requests.get((request.params as { id: string }).id);
    if (!found) void reply.code(404).send({ detail: 'Request not found' });
    return found;
  };

  app.get(JWKS_PATH, async () => {
    jwksReads += 1;
    return signer.jwks();
  });

  app.get('/:owner/:alias/requests/:id/status', async (request, reply) => {
    const found = find(request, reply);
    if (!found) return reply;
    if (found.status === 'IN_QUEUE' || found.status === 'IN_PROGRESS') {
      found.polls += 1;
      if (found.polls >= pollsToComplete) void completed(found);
      else found.status = 'IN_PROGRESS';
    } else if (found.status === 'COMPLETED') {
      found.polls += 1;
    }
    return { status: found.status === 'CANCELLED' ? 'COMPLETED' : found.status, request_id: found.requestId, ...urls(found.endpoint, found.requestId) };
  });

  app.get('/:owner/:alias/requests/:id', async (request, reply) => {
    const found = find(request, reply);
    if (!found) return reply;
    if (found.status === 'CANCELLED') return reply.code(400).send({ detail: 'Request was cancelled' });
    if (found.status !== 'COMPLETED') return reply.code(400).send({ detail: 'Request is still in progress' });
    const outcome = resultOf(found);
    return outcome.ok ? outcome.result : reply.code(422).send(outcome.error);
  });

  const resultOf = (found: FalSubmission) => {
    const prompt = typeof found.input.prompt === 'string' ? found.input.prompt : '';
    if (prompt.includes('sim:fail')) return { ok: false as const, error: { detail: [{ loc: ['body', 'prompt'], msg: 'sim: the model refused the prompt', type: 'value_error' }] } };
    return { ok: true as const, result: { images: [{ url: `${origin}/files/${found.requestId}.png`, width: 1024, height: 768, content_type: 'image/png' }], seed: 42, prompt } };
  };

  /** Marks the request done and, when it asked for one, POSTs fal's signed webhook (its body as fal sends it). */
  const completed = async (found: FalSubmission): Promise<FalWebhookSent | undefined> => {
    found.status = 'COMPLETED';
    if (!found.webhookUrl) return undefined;
    const outcome = resultOf(found);
    const body = JSON.stringify({
      request_id: found.requestId, gateway_request_id: found.requestId,
      ...(outcome.ok ? { status: 'OK', payload: outcome.result } : { status: 'ERROR', error: 'Invalid status code: 422', payload: outcome.error }),
    });
    const headers = { 'content-type': 'application/json', ...signer.sign(found.requestId, body) };
    const status = await fetch(found.webhookUrl, { method: 'POST', headers, body }).then((response) => response.status, () => 0);
    const delivery = { requestId: found.requestId, url: found.webhookUrl, status };
    sent.push(delivery);
    return delivery;
  };

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
    holdNextSubmits(count, ms) {
      holding = { count, ms };
    },
    get submitsHeld() {
      return inFlight;
    },
    jwksUrl: `${origin}${JWKS_PATH}`,
    async complete(requestId) {
      const found = requests.get(requestId);
      if (!found) throw new Error(`the fal sim has no request ${requestId}`);
      return completed(found);
    },
    signWebhook: (requestId, body, timestampSeconds) => signer.sign(requestId, body, timestampSeconds),
    rotateWebhookKey: () => signer.rotate(),
    retireOldWebhookKeys: () => signer.retireOld(),
    jwksReads: () => jwksReads,
    webhooksSent: () => [...sent],
    close: () => app.close(),
  };
}
