/**
 * @vetted/client: a typed client for the Vetted API.
 *
 *   const vetted = createVettedClient({ baseUrl: 'http://localhost:3000', apiKey: process.env.VETTED_API_KEY! });
 *   const { id } = await vetted.submitRun({ model: 'black-forest-labs/flux-schnell', prompt: 'a red fox' });
 *   for await (const event of vetted.followRun(id)) console.log(event.type);
 */
export { createVettedClient, type CallInit, type ReviewDecision, type VettedClient, type VettedClientOptions } from './client.ts';
export type { AuditRecord } from './audit.ts';
export { followRunEvents, type FollowRunOptions, type RunEventSource } from './follow-run.ts';
export { verifyWebhook, WEBHOOK_SIGNATURE_HEADER, DEFAULT_TOLERANCE_SECONDS, type VerifyWebhookOptions } from './webhook.ts';
export {
  VettedApiError, VettedClientError, WebhookVerificationError, isVettedApiError, isVettedClientError,
  type ClientErrorCode, type Problem, type WebhookErrorCode,
} from './errors.ts';
export * from './types.ts';
