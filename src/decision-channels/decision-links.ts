/**
 * The signed decision links of the waiting-review email (pure). A link's token is `v1.<claims>.<signature>`:
 * the claims (which review of which run, the payload hash the email showed, the person it was sent to, the
 * action, when it stops working, a nonce) as base64url JSON, and HMAC-SHA256 over `v1.<claims>` with the link
 * secret (VETTED_EMAIL_LINK_SECRET), base64url. The signature is checked, in constant time, before anything in
 * the claims is read; a token is single use (the ledger keeps the sha256 of each used one, link-ledger.ts).
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ChannelAction } from './person-decision.ts';

const VERSION = 'v1';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HASH = /^[0-9a-f]{64}$/;
const REVIEWER = /^rv_[a-z0-9]{1,40}$/;
/** Where the links lead: the API's pages (api/routes/decision-links.ts), on the server that serves the console. */
export const DECISION_LINK_PATH = '/api/decision-links';
/** Longer than any token Vetted makes (about 400 characters); anything longer is not read. */
export const MAX_TOKEN_LENGTH = 1000;

export interface LinkClaims {
  reviewId: string;
  runId: string;
  /** The payload hash of the review as the email showed it: a changed payload refuses the decision. */
  payloadHash: string;
  /** The reviewer the email went to: the decision is theirs. */
  reviewerId: string;
  action: ChannelAction;
  /** Unix seconds after which the link does nothing. */
  expiresAt: number;
  nonce: string;
}

export type LinkCheck =
  | { kind: 'valid'; claims: LinkClaims }
  /** Well signed, but too late: the claims can be trusted, so the page can say when it expired. */
  | { kind: 'expired'; claims: LinkClaims }
  /** Not a link Vetted made (cut short, altered, signed with another secret). */
  | { kind: 'invalid'; why: string };

/** A token for these claims (the nonce is drawn here). */
export function signLink(secret: string, claims: Omit<LinkClaims, 'nonce'>): string {
  const body = { r: claims.reviewId, u: claims.runId, h: claims.payloadHash, p: claims.reviewerId, a: claims.action, e: claims.expiresAt, n: randomBytes(12).toString('base64url') };
  const signed = `${VERSION}.${Buffer.from(JSON.stringify(body)).toString('base64url')}`;
  return `${signed}.${signatureOf(secret, signed).toString('base64url')}`;
}

/** Checks the signature first (constant time), then the claims' shape, then the expiry against `nowMs`. */
export function checkLink(secret: string, token: string, nowMs: number): LinkCheck {
  if (token.length === 0) return { kind: 'invalid', why: 'the link carries no token' };
  if (token.length > MAX_TOKEN_LENGTH) return { kind: 'invalid', why: 'the token is too long to be one Vetted made' };
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== VERSION) return { kind: 'invalid', why: 'the token is not in the form Vetted makes (it may have been cut short when the link was copied)' };
  const given = Buffer.from(parts[2]!, 'base64url');
  const expected = signatureOf(secret, `${parts[0]}.${parts[1]}`);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { kind: 'invalid', why: 'the signature does not match (the link was altered, or signed with a secret this server no longer has)' };
  }
  const claims = claimsOf(parts[1]!);
  if (!claims) return { kind: 'invalid', why: 'the claims are not in the form Vetted makes' };
  return nowMs >= claims.expiresAt * 1000 ? { kind: 'expired', claims } : { kind: 'valid', claims };
}

/** What the ledger keeps of a used token: its sha256, never the token (a credential until it is used). */
export function tokenHashOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** When a link sent at `nowMs` stops working: after the TTL, and never after the review's own expiry. */
export function linkExpiry(nowMs: number, ttlSeconds: number, reviewExpiresAt: string): number {
  const review = Math.floor(Date.parse(reviewExpiresAt) / 1000);
  const ttl = Math.floor(nowMs / 1000) + ttlSeconds;
  return Number.isFinite(review) ? Math.min(ttl, review) : ttl;
}

/**
 * The link for a token. The console is served by the API at /console (VETTED_CONSOLE_URL), so the API is the
 * console URL without that last segment.
 */
export function decisionLinkUrl(consoleUrl: string, token: string): string {
  const api = consoleUrl.replace(/\/+$/, '').replace(/\/console$/, '');
  return `${api}${DECISION_LINK_PATH}?token=${encodeURIComponent(token)}`;
}

function signatureOf(secret: string, signed: string): Buffer {
  return createHmac('sha256', secret).update(signed).digest();
}

/** Only called on signed claims, so a shape Vetted did not make means a bug or another version; refused all the same. */
function claimsOf(encoded: string): LinkClaims | undefined {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { r, u, h, p, a, e, n } = value as Record<string, unknown>;
  const ok = typeof r === 'string' && UUID.test(r) && typeof u === 'string' && UUID.test(u) && typeof h === 'string' && HASH.test(h)
    && typeof p === 'string' && REVIEWER.test(p) && (a === 'approve' || a === 'reject') && typeof e === 'number' && Number.isInteger(e)
    && typeof n === 'string' && n.length > 0 && n.length <= 64;
  return ok ? { reviewId: r, runId: u, payloadHash: h, reviewerId: p, action: a, expiresAt: e, nonce: n } : undefined;
}
