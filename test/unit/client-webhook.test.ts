/**
 * verifyWebhook (clients/typescript) against the server's own signer (src/delivery/webhook-signature.ts): what
 * the server signs verifies, and every way a delivery can be wrong is refused with its own code.
 */
import { describe, expect, it } from 'vitest';
import { signWebhook } from '../../src/delivery/webhook-signature.ts';
import { verifyWebhook, WebhookVerificationError, isVettedClientError, type WebhookErrorCode } from '../../clients/typescript/src/index.ts';

const SECRET = 'whsec-test-0123456789';
const NOW = 1_780_000_000;
const body = JSON.stringify({ id: '41', type: 'run.completed', at: '2026-05-28T20:26:40.000Z', data: {}, run: { id: 'r1', status: 'completed' } });

function refusal(run: () => unknown): WebhookErrorCode | string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect(isVettedClientError(error)).toBe(true);
    return (error as WebhookVerificationError).code;
  }
  return 'accepted';
}

describe('verifyWebhook', () => {
  it('accepts what the server signs, as a string, as bytes and from a Node header array, and returns the event', () => {
    const header = signWebhook(SECRET, body, NOW);
    expect(verifyWebhook(header, body, SECRET, { now: NOW })).toMatchObject({ id: '41', type: 'run.completed', run: { status: 'completed' } });
    expect(verifyWebhook(header, Buffer.from(body), SECRET, { now: NOW + 299 }).id).toBe('41');
    expect(verifyWebhook([header], new TextEncoder().encode(body), SECRET, { now: NOW - 299 }).id).toBe('41');
  });

  it('verifies non-ASCII bodies byte for byte', () => {
    const text = JSON.stringify({ id: '7', type: 'run.created', at: 'x', data: { prompt: 'un renard roux — 狐' }, run: { id: 'r' } });
    expect(verifyWebhook(signWebhook(SECRET, text, NOW), Buffer.from(text, 'utf8'), SECRET, { now: NOW }).data).toEqual({ prompt: 'un renard roux — 狐' });
  });

  it('refuses a tampered body, another secret, and a digest from another timestamp', () => {
    const header = signWebhook(SECRET, body, NOW);
    expect(refusal(() => verifyWebhook(header, body.replace('completed', 'cancelled'), SECRET, { now: NOW }))).toBe('WEBHOOK_SIGNATURE_MISMATCH');
    expect(refusal(() => verifyWebhook(header, `${body} `, SECRET, { now: NOW }))).toBe('WEBHOOK_SIGNATURE_MISMATCH');
    expect(refusal(() => verifyWebhook(header, body, 'another-secret', { now: NOW }))).toBe('WEBHOOK_SIGNATURE_MISMATCH');
    // The timestamp is signed: moving it (to get past the tolerance) breaks the signature.
    const moved = header.replace(`t=${NOW}`, `t=${NOW + 100}`);
    expect(refusal(() => verifyWebhook(moved, body, SECRET, { now: NOW + 100 }))).toBe('WEBHOOK_SIGNATURE_MISMATCH');
  });

  it('refuses a signature older or newer than the tolerance (a replay), with the tolerance adjustable', () => {
    const header = signWebhook(SECRET, body, NOW);
    expect(refusal(() => verifyWebhook(header, body, SECRET, { now: NOW + 301 }))).toBe('WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE');
    expect(refusal(() => verifyWebhook(header, body, SECRET, { now: NOW - 301 }))).toBe('WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE');
    expect(refusal(() => verifyWebhook(header, body, SECRET, { now: NOW + 30, toleranceSeconds: 10 }))).toBe('WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE');
    expect(refusal(() => verifyWebhook(header, body, SECRET, { now: NOW + 3600, toleranceSeconds: 3600 }))).toBe('accepted');
    // The clock is the default "now": a signature made now verifies without passing one.
    const fresh = signWebhook(SECRET, body, Math.floor(Date.now() / 1000));
    expect(refusal(() => verifyWebhook(fresh, body, SECRET))).toBe('accepted');
    expect(refusal(() => verifyWebhook(header, body, SECRET))).toBe('WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE');
  });

  it('names a missing or malformed header, and an empty secret', () => {
    const digest = signWebhook(SECRET, body, NOW).split('v1=')[1]!;
    expect(refusal(() => verifyWebhook(undefined, body, SECRET))).toBe('WEBHOOK_SIGNATURE_MISSING');
    expect(refusal(() => verifyWebhook('', body, SECRET))).toBe('WEBHOOK_SIGNATURE_MISSING');
    expect(refusal(() => verifyWebhook([], body, SECRET))).toBe('WEBHOOK_SIGNATURE_MISSING');
    for (const header of [`v1=${digest}`, `t=${NOW}`, `t=soon,v1=${digest}`, `t=${NOW},v1=abc`, `t=${NOW},t=${NOW},v1=${digest}`, `garbage`, `t=${NOW},v1=${'z'.repeat(64)}`]) {
      expect(refusal(() => verifyWebhook(header, body, SECRET, { now: NOW })), header).toBe('WEBHOOK_SIGNATURE_MALFORMED');
    }
    expect(refusal(() => verifyWebhook(signWebhook(SECRET, body, NOW), body, '', { now: NOW }))).toBe('WEBHOOK_SECRET_MISSING');
  });

  it('accepts any one matching v1 (a secret being rotated) and ignores unknown schemes', () => {
    const good = signWebhook(SECRET, body, NOW).split('v1=')[1]!;
    const other = signWebhook('old-secret', body, NOW).split('v1=')[1]!;
    expect(verifyWebhook(`t=${NOW},v1=${other},v1=${good},v0=whatever`, body, SECRET, { now: NOW }).id).toBe('41');
  });

  it('refuses a correctly signed body that is not a Vetted event', () => {
    expect(refusal(() => verifyWebhook(signWebhook(SECRET, 'not json', NOW), 'not json', SECRET, { now: NOW }))).toBe('WEBHOOK_BODY_INVALID');
    expect(refusal(() => verifyWebhook(signWebhook(SECRET, '{"id":1}', NOW), '{"id":1}', SECRET, { now: NOW }))).toBe('WEBHOOK_BODY_INVALID');
  });
});
