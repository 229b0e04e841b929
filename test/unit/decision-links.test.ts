import { describe, expect, it } from 'vitest';
import { checkLink, decisionLinkUrl, linkExpiry, signLink, tokenHashOf } from '../../src/decision-channels/decision-links.ts';
import { emailTargets, linkRecipients } from '../../src/decision-channels/email-links.ts';
import type { ReviewerRow } from '../../src/auth/key-rows.ts';

const SECRET = 'a-link-secret-of-at-least-thirty-two-characters';
const NOW_MS = 1_800_000_000_000;
const CLAIMS = {
  reviewId: '0b8f6a52-3c1e-4b8e-9d1a-2f3e4d5c6b7a',
  runId: '1c9e7b63-4d2f-4c9f-8e2b-3a4f5e6d7c8b',
  payloadHash: 'ab'.repeat(32),
  reviewerId: 'rv_abc123def456',
  action: 'approve' as const,
  expiresAt: NOW_MS / 1000 + 600,
};

function flip(text: string, at: number): string {
  const c = text[at]!;
  return `${text.slice(0, at)}${c === 'A' ? 'B' : 'A'}${text.slice(at + 1)}`;
}

describe('decision link tokens', () => {
  it('round-trip their claims, each with its own nonce', () => {
    const token = signLink(SECRET, CLAIMS);
    expect(token).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    const check = checkLink(SECRET, token, NOW_MS);
    expect(check).toMatchObject({ kind: 'valid', claims: CLAIMS });
    const again = signLink(SECRET, CLAIMS);
    expect(again).not.toBe(token);
    expect(tokenHashOf(again)).not.toBe(tokenHashOf(token));
  });

  it('refuse another secret, an altered claim or signature, a cut or empty token', () => {
    const token = signLink(SECRET, CLAIMS);
    const [version, claims, signature] = token.split('.') as [string, string, string];
    expect(checkLink(`${SECRET}x`, token, NOW_MS)).toMatchObject({ kind: 'invalid', why: expect.stringContaining('signature') });
    expect(checkLink(SECRET, `${version}.${flip(claims, 10)}.${signature}`, NOW_MS).kind).toBe('invalid');
    expect(checkLink(SECRET, `${version}.${claims}.${flip(signature, 5)}`, NOW_MS).kind).toBe('invalid');
    expect(checkLink(SECRET, token.slice(0, -4), NOW_MS).kind).toBe('invalid');
    expect(checkLink(SECRET, `v2.${claims}.${signature}`, NOW_MS).kind).toBe('invalid');
    expect(checkLink(SECRET, '', NOW_MS).kind).toBe('invalid');
    expect(checkLink(SECRET, 'x'.repeat(5000), NOW_MS).kind).toBe('invalid');
    // Another action under the same signature: the claims are what is signed.
    const reject = Buffer.from(Buffer.from(claims, 'base64url').toString().replace('"approve"', '"reject"')).toString('base64url');
    expect(checkLink(SECRET, `${version}.${reject}.${signature}`, NOW_MS).kind).toBe('invalid');
  });

  it('expire at their expiry, and never outlive the review', () => {
    const token = signLink(SECRET, CLAIMS);
    expect(checkLink(SECRET, token, CLAIMS.expiresAt * 1000 - 1).kind).toBe('valid');
    expect(checkLink(SECRET, token, CLAIMS.expiresAt * 1000)).toMatchObject({ kind: 'expired', claims: { reviewId: CLAIMS.reviewId } });
    expect(linkExpiry(NOW_MS, 86_400, new Date(NOW_MS + 3_600_000).toISOString())).toBe(NOW_MS / 1000 + 3600);
    expect(linkExpiry(NOW_MS, 600, new Date(NOW_MS + 3_600_000).toISOString())).toBe(NOW_MS / 1000 + 600);
  });

  it('lead to the API beside the console', () => {
    expect(decisionLinkUrl('https://vetted.example.com/console', 'v1.a.b')).toBe('https://vetted.example.com/api/decision-links?token=v1.a.b');
    expect(decisionLinkUrl('https://example.com/tools/vetted/console/', 'v1.a.b')).toBe('https://example.com/tools/vetted/api/decision-links?token=v1.a.b');
  });
});

describe('who gets decision links', () => {
  const person = (id: string, role: ReviewerRow['role'], email: string | null, team: string | null = null): ReviewerRow =>
    ({ id, tenantId: 't1', name: id, role, team, slackUserId: null, email, available: true, lastAssignedAt: null, createdAt: new Date(NOW_MS), removedAt: null });
  const people = [person('rv_ada', 'reviewer', 'ada@example.com', 'ops'), person('rv_sub', 'submitter', 'sub@example.com'), person('rv_nomail', 'reviewer', null), person('rv_boss', 'admin', 'ops@example.com')];
  const binding = { tenantId: 't1', reviewId: CLAIMS.reviewId, payloadHash: CLAIMS.payloadHash, canApprove: true };
  const review = { binding, runId: CLAIMS.runId, expiresAt: new Date(NOW_MS + 3_600_000).toISOString() };
  const settings = { secret: SECRET, ttlSeconds: 600, consoleUrl: 'https://v.example/console' };

  it('only reviewers with an address whose role may decide, of the review team when it has one', () => {
    expect(linkRecipients(people, {}).map((p) => p.id)).toEqual(['rv_ada', 'rv_boss']);
    expect(linkRecipients(people, { team: 'ops' }).map((p) => p.id)).toEqual(['rv_ada']);
    expect(linkRecipients(people, { team: 'ops', only: ['reviewer:rv_boss', 'rv_sub'] }).map((p) => p.id)).toEqual(['rv_boss']);
  });

  it("each to their own address, signed for them; the tenant's address keeps its email, with links only if it is a recipient's", () => {
    const targets = emailTargets('OPS@example.com', people, review, settings, NOW_MS);
    expect(targets.map((t) => [t.target, t.delivery ?? t.channel, t.links?.person])).toEqual([['OPS@example.com', 'email', 'rv_boss'], ['ada@example.com', 'email:rv_ada', 'rv_ada']]);
    const token = decodeURIComponent(new URL(targets[1]!.links!.approve!).searchParams.get('token')!);
    expect(checkLink(SECRET, token, NOW_MS)).toMatchObject({ kind: 'valid', claims: { reviewerId: 'rv_ada', action: 'approve', runId: CLAIMS.runId } });
    const reject = new URL(targets[1]!.links!.reject).searchParams.get('token')!;
    expect(checkLink(SECRET, reject, NOW_MS)).toMatchObject({ claims: { action: 'reject' } });
  });

  it('no Approve link over blocking issues, and no links at all without a secret', () => {
    const blocked = emailTargets('team@example.com', people, { ...review, binding: { ...binding, canApprove: false } }, settings, NOW_MS);
    expect(blocked.every((t) => !t.links?.approve)).toBe(true);
    expect(blocked.filter((t) => t.links).length).toBe(2);
    expect(emailTargets('team@example.com', people, review, { ...settings, secret: undefined }, NOW_MS)).toEqual([{ channel: 'email', target: 'team@example.com' }]);
  });
});
