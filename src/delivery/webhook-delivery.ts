/**
 * Delivers one run event to the run's callback URL, signed. Non-2xx answers and network errors throw, so
 * BullMQ retries with backoff; the pipeline never waits for a receiver. The HTTP request, and the refusal of
 * private targets (SSRF), are in callback-delivery.ts.
 */
import { UnrecoverableError } from 'bullmq';
import { actorsHidden } from '../auth/actor-view.ts';
import type { WebhookJob } from '../engine/dispatch.ts';
import type { Engine } from '../engine/engine.ts';
import { isVettedError } from '../errors.ts';
import { maskForView } from '../observability/redact.ts';
import { secretFieldNames } from '../secrets/sealer.ts';
import { postCallback } from './callback-delivery.ts';
import { SIGNATURE_HEADER, signWebhook } from './webhook-signature.ts';

/** @returns the receiver's status; throws (BullMQ retries) on a failure worth another try. */
export async function deliverWebhook(system: Engine, job: WebhookJob): Promise<number> {
  const run = await system.store.get(job.runId);
  const url = run?.request.callbackUrl;
  const secret = system.config.webhookSecret;
  if (!run || !url) return 0;
  if (!secret) throw new UnrecoverableError('VETTED_WEBHOOK_SECRET is not configured; cannot sign the delivery');
  const [event] = await system.store.events(run.id, { afterId: BigInt(job.eventId) - 1n, limit: 1 });
  if (!event || String(event.id) !== job.eventId) return 0;

  // Masked as the API masks what it shows (maskForView): a webhook is one more view of the run, so the model's
  // secret-role inputs are masked whatever their names (a provider's output may echo them).
  const secretFields = new Set(secretFieldNames(run.schemaKey ? await system.models.getSchema(run.schemaKey) : undefined));
  // The callback URL is the submitting app's: like a submitter reading the run, it sees reviewers as pseudonyms.
  const body = JSON.stringify(actorsHidden(maskForView({
    id: String(event.id),
    type: event.type,
    at: event.at.toISOString(),
    data: event.data,
    run: {
      id: run.id, status: run.status, stage: run.stage, model: run.model, traceId: run.traceId, threadId: run.threadId,
      pendingReview: run.pendingReview ? { reviewId: run.pendingReview.reviewId, checkpoint: run.pendingReview.checkpoint, reason: run.pendingReview.reason, question: run.pendingReview.question, expiresAt: run.pendingReview.expiresAt } : null,
      result: run.result, error: run.error,
    },
  }, secretFields), run.tenantId));
  const timestamp = Math.floor(Date.now() / 1000);
  const headers = {
    'content-type': 'application/json',
    [SIGNATURE_HEADER]: signWebhook(secret, body, timestamp),
    'vetted-event-id': String(event.id),
    'vetted-event-type': event.type,
  };
  const status = await postCallback(url, { body, headers }, { allowPrivate: system.config.webhookAllowPrivate }).catch((error: unknown) => {
    // A refused target (a private address, at intake or after DNS) stays refused: retrying cannot help.
    throw isVettedError(error) && !error.retryable ? new UnrecoverableError(error.message) : error;
  });
  // 410 Gone: the receiver says it will never want this; anything else non-2xx is worth another try.
  if (status === 410) throw new UnrecoverableError('receiver answered 410 Gone');
  if (status < 200 || status > 299) throw new Error(`receiver answered ${status}`);
  return status;
}
