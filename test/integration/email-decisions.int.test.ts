/**
 * Approve and reject from an email link, end to end: the waiting-review email (through a loopback SMTP server)
 * carries links signed for each reviewer who may decide; opening one (GET) only shows a confirm page; the
 * page's form (POST) decides once, as that reviewer, through the API's decision service. Replays, altered and
 * expired links, a payload that changed, a person whose role may not decide and a decision someone else made
 * first each answer a page and a 4xx, and decide nothing.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../src/audit/audit-record.ts';
import { verifyAuditChain } from '../../src/audit/audit-verify.ts';
import type { ReviewerRow } from '../../src/auth/key-rows.ts';
import { signLink, tokenHashOf } from '../../src/decision-channels/decision-links.ts';
import { createApiHarness, json, type ApiHarness } from '../support/api.ts';
import { settle } from '../support/pipeline.ts';
import { closeSmtp, listenSmtp, smtpReceiver } from '../support/smtp-receiver.ts';
import { eventually } from '../support/test-system.ts';

const SECRET = 'email-link-secret-for-the-tests-0123456789';
const TEAM = 'team@example.test';
const smtp = smtpReceiver();
let api: ApiHarness;
let ada: ReviewerRow;
let grace: ReviewerRow;
let sam: ReviewerRow;

beforeAll(async () => {
  const smtpUrl = await listenSmtp(smtp);
  api = await createApiHarness({ VETTED_SMTP_URL: smtpUrl, VETTED_EMAIL_LINK_SECRET: SECRET, VETTED_CONSOLE_URL: 'https://vetted.test/console' });
  const saved = await api.call('PUT', '/api/notification-settings', { body: { email: TEAM, events: ['waiting'] } });
  expect(saved.statusCode, saved.body).toBe(200);
  ada = await api.system.reviewers.create({ tenantId: 't1', name: 'Ada Lovelace', role: 'reviewer', email: 'ada@example.test' });
  grace = await api.system.reviewers.create({ tenantId: 't1', name: 'Grace Hopper', role: 'reviewer', email: 'grace@example.test' });
  sam = await api.system.reviewers.create({ tenantId: 't1', name: 'Sam Submitter', role: 'submitter', email: 'sam@example.test' });
});

afterAll(async () => {
  await api?.close();
  await closeSmtp(smtp);
});

interface Review { runId: string; reviewId: string; payloadHash: string; expiresAt: string }

async function parked(prompt = 'a heron at dawn'): Promise<Review> {
  const response = await api.call('POST', '/api/runs', { key: api.keys.submitter, body: { model: 'black-forest-labs/flux-schnell', prompt, policy: { mode: 'require_human' } } });
  expect(response.statusCode, response.body).toBe(202);
  const run = await settle(api.system, json<{ id: string }>(response).id, ['awaiting_human']);
  const review = run.pendingReview!;
  return { runId: run.id, reviewId: review.reviewId, payloadHash: review.payloadHash, expiresAt: review.expiresAt };
}

/** The text of a raw message as sent (nodemailer picks quoted-printable for long lines). */
function bodyOf(raw: string): string {
  const split = raw.indexOf('\r\n\r\n');
  const headers = raw.slice(0, split);
  const body = raw.slice(split + 4);
  const encoding = /^content-transfer-encoding:\s*(\S+)/im.exec(headers)?.[1]?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding !== 'quoted-printable') return body;
  const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

function recipientOf(raw: string): string {
  return /^to:\s*(.+)$/im.exec(raw)?.[1]?.trim() ?? '';
}

/** The waiting email for this review to this address, once it arrived. */
async function emailTo(address: string, review: Review): Promise<string> {
  return eventually(async () => {
    const raw = smtp.messages.find((message) => recipientOf(message).includes(address) && bodyOf(message).includes(review.reviewId));
    return raw ? bodyOf(raw) : undefined;
  }, 20_000, `the email to ${address}`);
}

function linkIn(text: string, label: 'Approve' | 'Reject'): string | undefined {
  const url = new RegExp(`^${label}: (https://\\S+)$`, 'm').exec(text)?.[1];
  if (!url) return undefined;
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

async function linksOf(person: ReviewerRow, review: Review): Promise<{ approve: string; reject: string }> {
  const text = await emailTo(person.email!, review);
  return { approve: linkIn(text, 'Approve')!, reject: linkIn(text, 'Reject')! };
}

function tokenOf(link: string): string {
  return new URL(link, 'https://vetted.test').searchParams.get('token')!;
}

function open(link: string): Promise<LightMyRequestResponse> {
  return api.call('GET', link, { key: null });
}

function post(link: string, form: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  const body = new URLSearchParams({ token: tokenOf(link), ...form }).toString();
  return api.call('POST', link, { key: null, rawBody: body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
}

/** A link signed with the server's secret, as the email would carry it, with claims of the test's choosing. */
function signed(review: Review, person: ReviewerRow, overrides: { action?: 'approve' | 'reject'; payloadHash?: string; expiresAt?: number } = {}): string {
  const token = signLink(SECRET, {
    reviewId: review.reviewId, runId: review.runId, payloadHash: overrides.payloadHash ?? review.payloadHash, reviewerId: person.id,
    action: overrides.action ?? 'approve', expiresAt: overrides.expiresAt ?? Math.floor(api.system.clock.now().getTime() / 1000) + 600,
  });
  return `/api/decision-links?token=${encodeURIComponent(token)}`;
}

async function unchanged(review: Review): Promise<void> {
  const run = await api.system.store.get(review.runId);
  expect(run?.status).toBe('awaiting_human');
  expect(run?.pendingReview?.reviewId).toBe(review.reviewId);
  expect(await api.system.store.decisions(review.runId)).toEqual([]);
}

function expectPageHeaders(response: LightMyRequestResponse): void {
  expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(response.headers['cache-control']).toBe('no-store');
  expect(response.headers['referrer-policy']).toBe('no-referrer');
  const csp = String(response.headers['content-security-policy']);
  expect(csp).toContain("form-action 'self'");
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  // Nothing on the page is fetched from anywhere.
  expect(response.body).not.toMatch(/<(script|img|link|iframe)\b/i);
}

describe('the waiting-review email', () => {
  it('carries Approve and Reject links to each reviewer who may decide, and none to others or to the team address', async () => {
    const review = await parked();
    const text = await emailTo('ada@example.test', review);
    expect(text).toContain('Decide from here, as Ada Lovelace');
    expect(linkIn(text, 'Approve')).toMatch(/^\/api\/decision-links\?token=v1\./);
    expect(linkIn(text, 'Reject')).toMatch(/^\/api\/decision-links\?token=v1\./);
    expect(text).toContain(`Open it: https://vetted.test/console/reviews/${review.reviewId}`);
    expect(linkIn(await emailTo('grace@example.test', review), 'Approve')).toBeDefined();
    const team = await emailTo(TEAM, review);
    expect(team).not.toContain('/api/decision-links');
    // The submitter's role may not decide: no email of theirs carries links.
    await eventually(async () => ((await api.system.notifications.deliveriesOf('review', review.reviewId)).filter((row) => row.status === 'sent').length === 3 ? true : undefined), 20_000, 'three emails sent');
    expect(smtp.messages.some((message) => recipientOf(message).includes('sam@example.test'))).toBe(false);
    const channels = (await api.system.notifications.deliveriesOf('review', review.reviewId)).map((row) => row.channel).sort();
    expect(channels).toEqual(['email', `email:${ada.id}`, `email:${grace.id}`].sort());
  });
});

describe('a decision from an email link', () => {
  it('GET only shows the confirm page; POST decides once, as the person; a second POST is told it was used', async () => {
    const review = await parked('a kite over the sea');
    const { approve } = await linksOf(ada, review);

    for (let i = 0; i < 2; i++) {
      const page = await open(approve);
      expect(page.statusCode, page.body).toBe(200);
      expectPageHeaders(page);
      expect(page.body).toContain('Approve this review?');
      expect(page.body).toContain(review.payloadHash);
      expect(page.body).toContain('<form method="post">');
      expect(page.body).toContain('Ada Lovelace (reviewer)');
      expect(page.body).toContain('a kite over the sea');
    }
    await unchanged(review);
    expect(await api.system.decisionLinks.find(tokenHashOf(tokenOf(approve)))).toBeUndefined();

    const decided = await post(approve);
    expect(decided.statusCode, decided.body).toBe(200);
    expectPageHeaders(decided);
    expect(decided.body).toContain('Approved by Ada Lovelace');
    const decisions = await api.system.store.decisions(review.runId);
    expect(decisions.map((d) => [d.reviewId, d.action, d.actor])).toEqual([[review.reviewId, 'approve', `reviewer:${ada.id}`]]);

    const replay = await post(approve);
    expect(replay.statusCode).toBe(409);
    expect(replay.body).toContain('already used');
    expect(replay.body).toContain('by Ada Lovelace, to approve');
    const reopened = await open(approve);
    expect(reopened.statusCode).toBe(409);
    expect(reopened.body).toContain('already used');
    expect(await api.system.store.decisions(review.runId)).toHaveLength(1);

    // The audit chain has the decision, with the person and the payload hash, and verifies.
    const audit = await api.call('GET', '/api/audit', { key: api.keys.admin });
    expect(audit.statusCode).toBe(200);
    const records = audit.body.split('\n').filter(Boolean).map((line) => JSON.parse(line) as AuditRecord);
    expect(records.filter((r) => r.reviewId === review.reviewId && r.type === 'review.decided')).toEqual([
      expect.objectContaining({ action: 'approve', actor: `reviewer:${ada.id}`, payloadHash: review.payloadHash, runId: review.runId }),
    ]);
    expect(verifyAuditChain(audit.body)).toMatchObject({ intact: true });
  });

  it('two posts of one link at once decide once', async () => {
    const review = await parked('a gull on a post');
    const { approve } = await linksOf(ada, review);
    const answers = await Promise.all([post(approve), post(approve), post(approve)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409]);
    expect(await api.system.store.decisions(review.runId)).toHaveLength(1);
  });

  it('a reject asks for the reason: without one nothing is decided and the link still works; with one it decides', async () => {
    const review = await parked('a lighthouse in fog');
    const { reject } = await linksOf(grace, review);
    const page = await open(reject);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('name="reason"');

    const empty = await post(reject, { reason: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('Say why you reject it');
    await unchanged(review);

    const done = await post(reject, { reason: 'the fog hides the lighthouse' });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.body).toContain('Rejected by Grace Hopper');
    const decisions = await api.system.store.decisions(review.runId);
    expect(decisions.map((d) => [d.action, d.actor, (d.raw as { reason?: string }).reason])).toEqual([['reject', `reviewer:${grace.id}`, 'the fog hides the lighthouse']]);
  });

  it('a decision made first through the API wins; the link page says who won', async () => {
    const review = await parked('a fox in the snow');
    const { approve, reject } = await linksOf(grace, review);
    const first = await api.call('POST', `/api/runs/${review.runId}/decision`, { key: api.keys.reviewer, body: { reviewId: review.reviewId, payloadHash: review.payloadHash, action: 'approve' } });
    expect(first.statusCode, first.body).toBe(200);

    const lost = await post(reject, { reason: 'too late' });
    expect(lost.statusCode).toBe(409);
    expect(lost.body).toContain('Someone decided first');
    expect(lost.body).toMatch(/already approved by key:/);
    const page = await open(approve);
    expect(page.statusCode).toBe(409);
    expect(page.body).toMatch(/already approved by key:/);
    expect((await api.system.store.decisions(review.runId)).map((d) => d.action)).toEqual(['approve']);
  });
});

describe('links that decide nothing', () => {
  it('an altered token is 400 with a page that says to open the console', async () => {
    const review = await parked('a boat at anchor');
    const { approve } = await linksOf(ada, review);
    const token = tokenOf(approve);
    const altered = `/api/decision-links?token=${encodeURIComponent(`${token.slice(0, -3)}${token.endsWith('AAA') ? 'BBB' : 'AAA'}`)}`;
    for (const response of [await open(altered), await post(altered)]) {
      expect(response.statusCode).toBe(400);
      expectPageHeaders(response);
      expect(response.body).toContain('This link does not work');
      expect(response.body).toContain('https://vetted.test/console');
    }
    // Another person's id under Ada's signature is the same: altered.
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    const forged = `v1.${Buffer.from(JSON.stringify({ ...claims, p: grace.id })).toString('base64url')}.${token.split('.')[2]}`;
    expect((await post(`/api/decision-links?token=${encodeURIComponent(forged)}`)).statusCode).toBe(400);
    expect((await open('/api/decision-links')).statusCode).toBe(400);
    expect((await open('/api/decision-links?token=nonsense')).statusCode).toBe(400);
    await unchanged(review);
  });

  it('an expired link is 410, however well signed', async () => {
    const review = await parked('a bridge at night');
    const link = signed(review, ada, { expiresAt: Math.floor(api.system.clock.now().getTime() / 1000) - 1 });
    for (const response of [await open(link), await post(link)]) {
      expect(response.statusCode).toBe(410);
      expect(response.body).toContain('This link has expired');
      expect(response.body).toContain(`https://vetted.test/console/reviews/${review.reviewId}`);
    }
    await unchanged(review);
  });

  it('a link bound to another payload hash is refused: the payload changed since the email', async () => {
    const review = await parked('a windmill in a field');
    const link = signed(review, ada, { payloadHash: '0'.repeat(64) });
    const page = await open(link);
    expect(page.statusCode).toBe(409);
    expect(page.body).toContain('The payload changed');
    expect(page.body).not.toContain('<form');
    const posted = await post(link);
    expect(posted.statusCode).toBe(409);
    expect(posted.body).toContain('the payload changed');
    await unchanged(review);
  });

  it('a person whose role may not decide is refused, even with a well-signed link', async () => {
    const review = await parked('a train in the rain');
    const link = signed(review, sam);
    const page = await open(link);
    expect(page.statusCode).toBe(403);
    expect(page.body).toContain('a submitter may not decide reviews');
    const posted = await post(link);
    expect(posted.statusCode).toBe(403);
    await unchanged(review);
  });
});


describe('the "expires soon" email', () => {
  it('carries each reviewer their own links like the waiting one, and a link from it decides on POST', async () => {
    const saved = await api.call('PUT', '/api/notification-settings', { body: { email: TEAM, events: ['waiting', 'expiring'], nearExpirySeconds: 3599 } });
    expect(saved.statusCode, saved.body).toBe(200);
    try {
      // Due in an hour and warned about one second after it was raised: the warning is on its delayed job.
      const response = await api.call('POST', '/api/runs', { key: api.keys.submitter, body: { model: 'black-forest-labs/flux-schnell', prompt: 'a lighthouse at dusk', policy: { mode: 'require_human', reviewTtlSeconds: 3600 } } });
      expect(response.statusCode, response.body).toBe(202);
      const run = await settle(api.system, json<{ id: string }>(response).id, ['awaiting_human']);
      const review: Review = { runId: run.id, reviewId: run.pendingReview!.reviewId, payloadHash: run.pendingReview!.payloadHash, expiresAt: run.pendingReview!.expiresAt };
      const expiring = (address: string) => eventually(async () => {
        const raw = smtp.messages.find((message) => recipientOf(message).includes(address) && bodyOf(message).includes(review.reviewId) && bodyOf(message).includes('expires soon'));
        return raw ? bodyOf(raw) : undefined;
      }, 20_000, `the expiring email to ${address}`);

      const toAda = await expiring(ada.email!);
      const toGrace = await expiring(grace.email!);
      expect(toAda).toContain('Decide from here, as Ada Lovelace');
      expect(toGrace).toContain('Decide from here, as Grace Hopper');
      const approve = linkIn(toAda, 'Approve')!;
      expect(approve).toMatch(/^\/api\/decision-links\?token=/);
      expect(linkIn(toAda, 'Reject')).toMatch(/^\/api\/decision-links\?token=/);
      expect(tokenOf(approve)).not.toBe(tokenOf(linkIn(toGrace, 'Approve')!));
      const toTeam = await expiring(TEAM);
      expect(linkIn(toTeam, 'Approve')).toBeUndefined();

      expect((await open(approve)).statusCode).toBe(200);
      await unchanged(review);
      expect((await post(approve)).statusCode).toBe(200);
      const decisions = await api.system.store.decisions(review.runId);
      expect(decisions.map((decision) => [decision.action, decision.actor])).toEqual([['approve', `reviewer:${ada.id}`]]);
    } finally {
      await api.call('PUT', '/api/notification-settings', { body: { email: TEAM, events: ['waiting'] } });
    }
  });
});
