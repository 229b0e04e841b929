/**
 * Replicate's webhooks: a delivery only wakes the execution waiting on that prediction (in this process),
 * which then reads the outcome from Replicate's API. The body is never trusted for the outcome, so a forged
 * delivery costs one extra GET; with REPLICATE_WEBHOOK_SECRET set, unsigned or wrongly signed ones are
 * refused before that.
 */
import type { FastifyInstance } from 'fastify';
import { validateWebhook } from 'replicate';
import { handleReplicateWebhook } from '../../src/adapters/replicate/webhook-waiters.ts';
import { VettedError } from '../../src/errors.ts';
import type { System } from '../../src/system.ts';

function header(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

export async function registerProviderWebhookRoutes(app: FastifyInstance, system: System): Promise<void> {
  await app.register(async (scope) => {
    // The signature covers the exact bytes, so this route keeps the raw body and parses it itself.
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    scope.post<{ Body: string }>('/api/webhooks/replicate', {
      schema: { tags: ['system'], summary: 'Replicate prediction webhooks (wake the waiting execution early)' },
    }, async (request, reply) => {
      const secret = system.config.replicate.webhookSecret;
      if (secret) {
        const valid = await validateWebhook({
          id: header(request.headers['webhook-id']),
          timestamp: header(request.headers['webhook-timestamp']),
          signature: header(request.headers['webhook-signature']),
          body: request.body,
          secret,
        }).catch(() => false);
        if (!valid) throw new VettedError('UNAUTHORIZED', 'The webhook signature does not match REPLICATE_WEBHOOK_SECRET');
      }
      let body: unknown;
      try {
        body = JSON.parse(request.body);
      } catch {
        throw new VettedError('INVALID_JSON', 'The webhook body is not valid JSON', { field: 'body' });
      }
      const providers = system.adapters.providerNames();
      if (!providers.includes('replicate')) return reply.code(200).send({ status: 'ignored', reason: 'the replicate provider is not configured here' });
      return reply.code(200).send(handleReplicateWebhook(system.adapters.provider('replicate'), body));
    });
  });
}
