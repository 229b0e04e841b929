/**
 * Provider webhooks: a delivery only wakes the execution waiting on that prediction or request (in this
 * process), which then reads the outcome from the provider's API. The body is never trusted for the outcome.
 *  - Replicate: with REPLICATE_WEBHOOK_SECRET set, unsigned or wrongly signed deliveries are refused, and so are
 *    deliveries whose timestamp is more than five minutes off (replays).
 *  - fal: always checked: an ED25519 signature by one of fal's published keys (VETTED_FAL_JWKS_URL) over the
 *    request id, user id, timestamp and body hash, with the timestamp within five minutes.
 */
import type { FastifyInstance } from 'fastify';
import { webhookRefusal } from '../../src/auth/webhook-signature.ts';
import { VettedError } from '../../src/errors.ts';
import { FAL_WEBHOOK_HEADERS } from '../../src/auth/fal-webhook-signature.ts';
import { handleFalWebhook, handleReplicateWebhook } from '../../src/provider-webhooks.ts';
import type { System } from '../../src/system.ts';
import { ref } from '../schemas.ts';

const signatureHeader = { type: 'string', maxLength: 1000 } as const;
const webhookHeaders = {
  type: 'object',
  properties: { 'webhook-id': signatureHeader, 'webhook-timestamp': signatureHeader, 'webhook-signature': signatureHeader },
} as const;

const falHeaders = {
  type: 'object',
  properties: Object.fromEntries(Object.values(FAL_WEBHOOK_HEADERS).map((name) => [name, signatureHeader])),
} as const;

/** What a delivery did (src/provider-webhooks.ts WebhookDelivery). */
const deliveryAnswer = {
  type: 'object',
  description: 'What the delivery did: woke the execution waiting on the prediction, found none waiting here, or ignored it',
  required: ['status'],
  properties: {
    status: { type: 'string', enum: ['woken', 'not_waiting', 'ignored'] },
    predictionId: { type: 'string' },
    waiters: { type: 'integer', minimum: 1 },
    reason: { type: 'string' },
  },
} as const;

/** The raw body parsed as the JSON object a provider sends. @throws VettedError INVALID_JSON, INVALID_REQUEST (field `body`) */
function jsonObjectBody(raw: string, what: string): Record<string, unknown> {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw new VettedError('INVALID_JSON', 'The webhook body is not valid JSON', { field: 'body' });
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new VettedError('INVALID_REQUEST', `The webhook body must be a JSON object (${what})`, { field: 'body' });
  }
  return body as Record<string, unknown>;
}

function header(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

export async function registerProviderWebhookRoutes(app: FastifyInstance, system: System): Promise<void> {
  await app.register(async (scope) => {
    // The signature covers the exact bytes, so this route keeps the raw body and parses it itself.
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    scope.post<{ Body: string }>('/api/webhooks/replicate', {
      schema: {
        operationId: 'receiveReplicateWebhook',
        tags: ['system'],
        summary: 'Replicate prediction webhooks (wake the waiting execution early)',
        description:
          'The body is a Replicate prediction; only its id is read (the outcome is fetched from Replicate). With REPLICATE_WEBHOOK_SECRET set, ' +
          'the webhook-id, webhook-timestamp and webhook-signature headers must carry a valid signature and a timestamp within 5 minutes of the server clock (401 otherwise: a replayed delivery is refused).',
        headers: webhookHeaders,
        response: { 200: deliveryAnswer, 400: ref('problem'), 401: ref('problem') },
        // The signature covers the raw bytes, so Fastify does not parse (or validate) this body; the document still shows it.
        openapi: { requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', description: 'A Replicate prediction object' }, example: { id: 'ufawqhfynnddngldkgtslldrkq', status: 'succeeded' } } } } },
      },
    }, async (request, reply) => {
      const secret = system.config.replicate.webhookSecret;
      if (secret) {
        const refusal = webhookRefusal({
          id: header(request.headers['webhook-id']),
          timestamp: header(request.headers['webhook-timestamp']),
          signature: header(request.headers['webhook-signature']),
          body: request.body,
        }, secret, system.clock.now().getTime());
        if (refusal) throw new VettedError('UNAUTHORIZED', `Webhook refused: ${refusal}`);
      }
      const body = jsonObjectBody(request.body, 'a Replicate prediction');
      const providers = system.adapters.providerNames();
      if (!providers.includes('replicate')) return reply.code(200).send({ status: 'ignored', reason: 'the replicate provider is not configured here' });
      return reply.code(200).send(handleReplicateWebhook(system.adapters.provider('replicate'), body));
    });
    scope.post<{ Body: string }>('/api/webhooks/fal', {
      schema: {
        operationId: 'receiveFalWebhook',
        tags: ['system'],
        summary: 'fal request webhooks (wake the waiting execution early)',
        description:
          'Sent by fal when a queued request is done (the fal provider submits with VETTED_FAL_WEBHOOK_URL). The X-Fal-Webhook-Request-Id, -User-Id, -Timestamp and -Signature ' +
          'headers must carry an ED25519 signature, by one of the keys fal publishes at VETTED_FAL_JWKS_URL, of the request id, user id, timestamp and the SHA-256 hex of the body, ' +
          'and a timestamp within 5 minutes of the server clock: otherwise 401 and nothing happens. Only the body\'s request_id is read; the outcome is fetched from fal.',
        headers: falHeaders,
        response: { 200: deliveryAnswer, 400: ref('problem'), 401: ref('problem'), 503: ref('problem') },
        openapi: { requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', description: 'fal\'s webhook body: request_id, gateway_request_id, status, payload' }, example: { request_id: '024ca5b1-45d3-4afd-883e-ad3abe2a1c4d', status: 'OK' } } } } },
      },
    }, async (request, reply) => {
      if (!system.adapters.providerNames().includes('fal')) {
        // Nothing to verify against here, but a body that is not one fal could send is still refused as one.
        jsonObjectBody(request.body, "fal's webhook body");
        return reply.code(200).send({ status: 'ignored', reason: 'the fal provider is not configured here' });
      }
      const delivery = {
        requestId: header(request.headers[FAL_WEBHOOK_HEADERS.requestId]),
        userId: header(request.headers[FAL_WEBHOOK_HEADERS.userId]),
        timestamp: header(request.headers[FAL_WEBHOOK_HEADERS.timestamp]),
        signature: header(request.headers[FAL_WEBHOOK_HEADERS.signature]),
        body: request.body,
      };
      return reply.code(200).send(await handleFalWebhook(system.adapters.provider('fal'), delivery, system.clock.now().getTime()));
    });
  });
}
