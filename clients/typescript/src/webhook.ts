/**
 * Verifying Vetted's webhooks, exactly as Vetted signs them (src/delivery/webhook-signature.ts):
 *
 *   Vetted-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>
 *
 * The timestamp is inside the HMAC, so a captured delivery cannot be replayed after the tolerance. Verify the
 * raw body as received (bytes or the undecoded string), before any JSON parsing: re-serialising changes bytes.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { VettedClientError, WebhookVerificationError } from './errors.ts';
import type { WebhookEvent } from './types.ts';

/** The header Vetted signs webhooks with (HTTP header names are case-insensitive). */
export const WEBHOOK_SIGNATURE_HEADER = 'vetted-signature';
/** Five minutes, as the server's own verifier. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

export interface VerifyWebhookOptions {
  /** How far the signed time may be from now, either way. Default 300 s. */
  toleranceSeconds?: number;
  /** "Now" in unix seconds (for tests and for receivers that queue deliveries). Default: the clock. */
  now?: number;
}

interface ParsedSignature {
  timestamp: number;
  digests: string[];
}

/**
 * Checks a delivery and returns its event. Throws {@link WebhookVerificationError} with a code saying why a
 * delivery is refused; never returns for a bad one.
 *
 * @param signature the `Vetted-Signature` header value (a Node header array is accepted: its first value counts)
 * @param body the raw request body, as a string or bytes
 * @param secret the `VETTED_WEBHOOK_SECRET` the server signs with
 */
export function verifyWebhook(
  signature: string | readonly string[] | null | undefined,
  body: string | Uint8Array,
  secret: string,
  options: VerifyWebhookOptions = {},
): WebhookEvent {
  if (typeof secret !== 'string' || secret.length === 0) throw new WebhookVerificationError('WEBHOOK_SECRET_MISSING', 'verifyWebhook needs the webhook secret: secret is empty', 'secret');
  const header = typeof signature === 'string' ? signature : signature?.[0];
  if (!header || header.trim() === '') throw new WebhookVerificationError('WEBHOOK_SIGNATURE_MISSING', 'The Vetted-Signature header is missing');
  const parsed = parseSignature(header);
  checkTimestamp(parsed.timestamp, options);
  const expected = createHmac('sha256', secret).update(`${parsed.timestamp}.`).update(body).digest();
  // Several v1 entries may appear (a secret being rotated): any one matching is enough. Each compare is
  // constant-time, and every entry is compared, so timing says nothing about which one matched.
  let matched = false;
  for (const digest of parsed.digests) matched = timingSafeEqual(expected, Buffer.from(digest, 'hex')) || matched;
  if (!matched) throw new WebhookVerificationError('WEBHOOK_SIGNATURE_MISMATCH', 'The Vetted-Signature does not match this body and secret');
  return parseBody(body);
}

/** `t=<digits>,v1=<64 hex>[,v1=…]`; unknown keys are ignored (a later scheme may add some). */
function parseSignature(header: string): ParsedSignature {
  let timestamp: number | undefined;
  const digests: string[] = [];
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    const key = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (at <= 0) throw malformed(`"${part.trim()}" is not key=value`);
    if (key === 't') {
      if (!/^[0-9]{1,12}$/.test(value) || timestamp !== undefined) throw malformed('t must appear once, as unix seconds');
      timestamp = Number(value);
    } else if (key === 'v1') {
      if (!/^[0-9a-fA-F]{64}$/.test(value)) throw malformed('v1 must be 64 hex digits (an HMAC-SHA256)');
      digests.push(value);
    }
  }
  if (timestamp === undefined) throw malformed('t (the signing time) is missing');
  if (digests.length === 0) throw malformed('v1 (the HMAC-SHA256) is missing');
  return { timestamp, digests };
}

function malformed(reason: string): WebhookVerificationError {
  return new WebhookVerificationError('WEBHOOK_SIGNATURE_MALFORMED', `The Vetted-Signature header is malformed: ${reason}`);
}

function checkTimestamp(timestamp: number, options: VerifyWebhookOptions): void {
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (!Number.isFinite(tolerance) || tolerance < 0) throw new VettedClientError('INVALID_OPTION', 'toleranceSeconds must be a number of seconds, 0 or more', { field: 'toleranceSeconds' });
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const skew = Math.abs(now - timestamp);
  if (skew > tolerance) {
    throw new WebhookVerificationError('WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE', `The webhook was signed ${skew} s from now; at most ${tolerance} s is accepted`);
  }
}

function parseBody(body: string | Uint8Array): WebhookEvent {
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new WebhookVerificationError('WEBHOOK_BODY_INVALID', 'The webhook body is not JSON', 'body');
  }
  const event = value as Partial<WebhookEvent> | null;
  if (!event || typeof event !== 'object' || typeof event.id !== 'string' || typeof event.type !== 'string' || typeof event.run !== 'object' || event.run === null) {
    throw new WebhookVerificationError('WEBHOOK_BODY_INVALID', 'The webhook body is not a Vetted event (id, type, run)', 'body');
  }
  return value as WebhookEvent;
}
