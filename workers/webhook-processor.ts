/**
 * Delivers one run event to the run's callback URL, signed. Non-2xx answers and network errors throw, so
 * BullMQ retries with backoff; the pipeline never waits for a receiver.
 */
import { UnrecoverableError, type Job } from 'bullmq';
import type { WebhookJobData } from '../src/queue/queues.ts';
import { SIGNATURE_HEADER, signWebhook } from '../src/services/webhook-signature.ts';
import type { System } from '../src/system.ts';

const DELIVERY_TIMEOUT_MS = 10_000;

export async function processWebhookJob(system: System, job: Job<WebhookJobData>): Promise<number> {
  const run = await system.runs.get(job.data.runId);
  const url = run?.request.callbackUrl;
  const secret = system.config.webhookSecret;
  if (!run || !url) return 0;
  if (!secret) throw new UnrecoverableError('VETTED_WEBHOOK_SECRET is not configured; cannot sign the delivery');
  const [event] = await system.runs.listEvents(run.id, { afterId: BigInt(job.data.eventId) - 1n, limit: 1 });
  if (!event || String(event.id) !== job.data.eventId) return 0;

  const body = JSON.stringify({
    id: String(event.id),
    type: event.type,
    at: event.at.toISOString(),
    data: event.data,
    run: {
      id: run.id, status: run.status, stage: run.stage, model: run.model, traceId: run.traceId, threadId: run.threadId,
      pendingReview: run.pendingReview ? { reviewId: run.pendingReview.reviewId, checkpoint: run.pendingReview.checkpoint, reason: run.pendingReview.reason, question: run.pendingReview.question, expiresAt: run.pendingReview.expiresAt } : null,
      result: run.result, error: run.error,
    },
  });
  const timestamp = Math.floor(Date.now() / 1000);
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      [SIGNATURE_HEADER]: signWebhook(secret, body, timestamp),
      'vetted-event-id': String(event.id),
      'vetted-event-type': event.type,
    },
    body,
    signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    redirect: 'manual',
  });
  // 410 Gone: the receiver says it will never want this; anything else non-2xx is worth another try.
  if (response.status === 410) throw new UnrecoverableError('receiver answered 410 Gone');
  if (!response.ok) throw new Error(`receiver answered ${response.status}`);
  return response.status;
}
