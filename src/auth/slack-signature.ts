/**
 * Slack signs every request to an app: `X-Slack-Signature: v0=<hex HMAC-SHA256>` over `v0:<timestamp>:<raw body>`
 * with the app's signing secret, and `X-Slack-Request-Timestamp` in seconds. Checked over the exact bytes
 * received, before anything is parsed, in constant time; a timestamp more than five minutes off is a replay.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SLACK_TOLERANCE_SECONDS = 5 * 60;

export interface SlackSignedRequest {
  /** X-Slack-Request-Timestamp. */
  timestamp: string;
  /** X-Slack-Signature. */
  signature: string;
  body: string;
}

/** `v0=<hex>`: what Slack would send for this body and time (the simulator and the tests sign with it). */
export function signSlackRequest(secret: string, timestamp: number | string, body: string): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

/** Why a request is refused, or undefined when the signing secret signed it within the time window. */
export function slackRefusal(request: SlackSignedRequest, secret: string, nowMs: number): string | undefined {
  if (!request.timestamp || !request.signature) return 'the X-Slack-Request-Timestamp and X-Slack-Signature headers are required';
  if (!/^\d{1,12}$/.test(request.timestamp)) return 'X-Slack-Request-Timestamp must be whole seconds since the epoch';
  if (Math.abs(nowMs / 1000 - Number(request.timestamp)) > SLACK_TOLERANCE_SECONDS) {
    return `X-Slack-Request-Timestamp is more than ${SLACK_TOLERANCE_SECONDS / 60} minutes from now (a replayed or delayed request)`;
  }
  const expected = Buffer.from(signSlackRequest(secret, request.timestamp, request.body));
  const given = Buffer.from(request.signature);
  // timingSafeEqual needs equal lengths; a length mismatch says nothing about the secret.
  const matches = given.length === expected.length && timingSafeEqual(given, expected);
  return matches ? undefined : 'the X-Slack-Signature does not match VETTED_SLACK_SIGNING_SECRET';
}
