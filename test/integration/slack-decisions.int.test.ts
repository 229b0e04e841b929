/**
 * Approve and reject from Slack, end to end: the waiting-review message (through a loopback incoming webhook)
 * carries buttons bound to the review and its payload hash; clicks come back signed, as Slack sends them, to
 * the real API; the real @slack/web-api client updates the message on the Slack simulator (src/sim/slack-sim.ts).
 * A bad signature, a stale timestamp, an unmapped Slack user and a stale payload hash change nothing.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReviewerRow } from '../../src/auth/key-rows.ts';
import { signedInteraction, SIM_SLACK_BOT_TOKEN, SIM_SLACK_SIGNING_SECRET, startSlackSim, type SlackSim } from '../../src/sim/slack-sim.ts';
import { createApiHarness, json, type ApiHarness } from '../support/api.ts';
import { settle } from '../support/pipeline.ts';
import { eventually } from '../support/test-system.ts';

const PATH = '/api/integrations/slack/interactions';
const CHANNEL = 'C0REVIEWS';
const MESSAGE_TS = '1700000000.000100';

let api: ApiHarness;
let slack: SlackSim;
let ada: ReviewerRow;
let grace: ReviewerRow;
const webhookBodies: string[] = [];
const receiver: Server = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString()));
  request.on('end', () => {
    webhookBodies.push(body);
    response.writeHead(200).end('ok');
  });
});

beforeAll(async () => {
  slack = await startSlackSim();
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  api = await createApiHarness({
    VETTED_SLACK_SIGNING_SECRET: SIM_SLACK_SIGNING_SECRET,
    VETTED_SLACK_BOT_TOKEN: SIM_SLACK_BOT_TOKEN,
    VETTED_SLACK_API_URL: slack.apiUrl,
    VETTED_WEBHOOK_ALLOW_PRIVATE: 'true',
  });
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/slack`;
  const saved = await api.call('PUT', '/api/notification-settings', { body: { slackWebhookUrl: hook, events: ['waiting'] } });
  expect(saved.statusCode, saved.body).toBe(200);
  ada = await api.system.reviewers.create({ tenantId: 't1', name: 'Ada Lovelace', role: 'reviewer', slackUserId: 'U0ADA' });
  grace = await api.system.reviewers.create({ tenantId: 't1', name: 'Grace Hopper', role: 'reviewer', slackUserId: 'U0GRACE' });
});

afterAll(async () => {
  await api?.close();
  await slack?.close();
  await new Promise((resolve) => receiver.close(resolve));
});

async function parked() {
  const response = await api.call('POST', '/api/runs', { key: api.keys.submitter, body: { model: 'black-forest-labs/flux-schnell', prompt: 'a heron at dawn', policy: { mode: 'require_human' } } });
  expect(response.statusCode, response.body).toBe(202);
  const run = await settle(api.system, json<{ id: string }>(response).id, ['awaiting_human']);
  return { runId: run.id, reviewId: run.pendingReview!.reviewId, payloadHash: run.pendingReview!.payloadHash };
}

interface Review { runId: string; reviewId: string; payloadHash: string }

function click(user: string, actionId: string, review: Review, overrides: { payloadHash?: string } = {}) {
  const value = JSON.stringify({ t: 't1', r: review.reviewId, h: overrides.payloadHash ?? review.payloadHash });
  return {
    type: 'block_actions',
    user: { id: user },
    trigger_id: `trigger-${user}`,
    channel: { id: CHANNEL },
    container: { type: 'message', channel_id: CHANNEL, message_ts: MESSAGE_TS },
    message: { ts: MESSAGE_TS, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*Review is waiting*' } }, { type: 'actions', elements: [] }] },
    actions: [{ action_id: actionId, value }],
  };
}

function nowSeconds(): number {
  return Math.floor(api.system.clock.now().getTime() / 1000);
}

async function send(payload: unknown, options: { secret?: string; timestamp?: number } = {}) {
  const signed = signedInteraction(options.secret ?? SIM_SLACK_SIGNING_SECRET, payload, options.timestamp ?? nowSeconds());
  return api.call('POST', PATH, { key: null, rawBody: signed.body, headers: signed.headers });
}

async function unchanged(review: Review): Promise<void> {
  const run = await api.system.store.get(review.runId);
  expect(run?.status).toBe('awaiting_human');
  expect(run?.pendingReview?.reviewId).toBe(review.reviewId);
  expect(await api.system.store.decisions(review.runId)).toEqual([]);
}

function callsSince(count: number) {
  return slack.calls().slice(count);
}

describe('the waiting-review message', () => {
  it('carries Approve, Reject and Open, bound to the review id and the payload hash', async () => {
    const review = await parked();
    const body = await eventually(async () => webhookBodies.find((text) => text.includes(review.reviewId)), 20_000, 'the Slack message');
    const actions = (JSON.parse(body) as { blocks: { type: string; elements?: { action_id: string; value?: string; url?: string }[] }[] }).blocks.find((b) => b.type === 'actions');
    expect(actions?.elements?.map((e) => e.action_id)).toEqual(['vetted_approve', 'vetted_reject', 'open']);
    expect(JSON.parse(actions!.elements![0]!.value!)).toEqual({ t: 't1', r: review.reviewId, h: review.payloadHash });
  });
});

describe('refused interactions change nothing', () => {
  it('a wrong signature is 401', async () => {
    const review = await parked();
    const response = await send(click('U0ADA', 'vetted_approve', review), { secret: 'another-signing-secret-entirely' });
    expect(response.statusCode).toBe(401);
    expect(json<{ detail: string }>(response).detail).toContain('X-Slack-Signature does not match');
    await unchanged(review);
  });

  it('a body changed after signing is 401', async () => {
    const review = await parked();
    const signed = signedInteraction(SIM_SLACK_SIGNING_SECRET, click('U0ADA', 'vetted_approve', review), nowSeconds());
    const response = await api.call('POST', PATH, { key: null, rawBody: signed.body.replace('U0ADA', 'U0GRACE'), headers: signed.headers });
    expect(response.statusCode).toBe(401);
    await unchanged(review);
  });

  it('a timestamp more than five minutes old is 401, however well signed', async () => {
    const review = await parked();
    const response = await send(click('U0ADA', 'vetted_approve', review), { timestamp: nowSeconds() - 6 * 60 });
    expect(response.statusCode).toBe(401);
    expect(json<{ detail: string }>(response).detail).toContain('more than 5 minutes');
    await unchanged(review);
  });

  it('missing signature headers are 401', async () => {
    const review = await parked();
    const response = await api.call('POST', PATH, { key: null, rawBody: `payload=${encodeURIComponent(JSON.stringify(click('U0ADA', 'vetted_approve', review)))}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(response.statusCode).toBe(401);
    await unchanged(review);
  });

  it('a Slack user who is no reviewer is told so in Slack, alone', async () => {
    const review = await parked();
    const before = slack.calls().length;
    const response = await send(click('U0STRANGER', 'vetted_approve', review));
    expect(response.statusCode, response.body).toBe(200);
    const calls = callsSince(before);
    expect(calls.map((c) => c.method)).toEqual(['chat.postEphemeral']);
    expect(calls[0]!.args).toMatchObject({ channel: CHANNEL, user: 'U0STRANGER' });
    expect(String(calls[0]!.args.text)).toContain('--slack-user U0STRANGER');
    await unchanged(review);
  });

  it('a button bound to another payload hash is refused: the payload changed since the message', async () => {
    const review = await parked();
    const before = slack.calls().length;
    const response = await send(click('U0ADA', 'vetted_approve', review, { payloadHash: '0'.repeat(64) }));
    expect(response.statusCode, response.body).toBe(200);
    const calls = callsSince(before);
    expect(calls.map((c) => c.method)).toEqual(['chat.postEphemeral']);
    expect(String(calls[0]!.args.text)).toContain('the payload changed');
    await unchanged(review);
  });

  it('a payload that is not a Slack interaction is 400 naming the field', async () => {
    const response = await send({ type: 'block_actions', user: { id: 'U0ADA' }, actions: [{ action_id: 'vetted_approve', value: 'not json' }] });
    expect(response.statusCode).toBe(400);
    expect(json<{ field: string }>(response).field).toBe('tenant');
  });
});

describe('a decision from Slack', () => {
  it('approves as the mapped person, with the API rules, and the message says who; a later click hears who won', async () => {
    const review = await parked();
    const before = slack.calls().length;
    const response = await send(click('U0ADA', 'vetted_approve', review));
    expect(response.statusCode, response.body).toBe(200);

    const decisions = await api.system.store.decisions(review.runId);
    expect(decisions.map((d) => [d.reviewId, d.action, d.actor])).toEqual([[review.reviewId, 'approve', `reviewer:${ada.id}`]]);
    expect((await api.system.store.get(review.runId))?.pendingReview).toBeNull();
    const update = callsSince(before).find((c) => c.method === 'chat.update');
    expect(update?.args).toMatchObject({ channel: CHANNEL, ts: MESSAGE_TS, text: 'Approved by Ada Lovelace in Slack' });
    expect((update?.args.blocks as { type: string }[]).map((b) => b.type)).toEqual(['section', 'context']);

    const late = slack.calls().length;
    const second = await send(click('U0GRACE', 'vetted_approve', review));
    expect(second.statusCode, second.body).toBe(200);
    const told = callsSince(late).find((c) => c.method === 'chat.postEphemeral');
    expect(told?.args).toMatchObject({ user: 'U0GRACE' });
    expect(String(told?.args.text)).toContain('already approved by Ada Lovelace');
    expect(await api.system.store.decisions(review.runId)).toHaveLength(1);
  });

  it('rejects through a dialog that asks why; the reason is kept', async () => {
    const review = await parked();
    const before = slack.calls().length;
    const opened = await send(click('U0GRACE', 'vetted_reject', review));
    expect(opened.statusCode, opened.body).toBe(200);
    const modal = callsSince(before).find((c) => c.method === 'views.open');
    expect(modal?.args.trigger_id).toBe('trigger-U0GRACE');
    await unchanged(review);

    const view = modal!.args.view as { callback_id: string; private_metadata: string };
    const submit = (reason: string) => ({
      type: 'view_submission',
      user: { id: 'U0GRACE' },
      view: { callback_id: view.callback_id, private_metadata: view.private_metadata, state: { values: { reason: { reason: { type: 'plain_text_input', value: reason } } } } },
    });
    const empty = await send(submit('   '));
    expect(json(empty)).toMatchObject({ response_action: 'errors' });
    await unchanged(review);

    const submitted = await send(submit('the heron faces the wrong way'));
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(json(submitted)).toEqual({});
    const decisions = await api.system.store.decisions(review.runId);
    expect(decisions.map((d) => [d.action, d.actor, (d.raw as { reason?: string }).reason])).toEqual([['reject', `reviewer:${grace.id}`, 'the heron faces the wrong way']]);
    const update = callsSince(before).find((c) => c.method === 'chat.update');
    expect(update?.args).toMatchObject({ channel: CHANNEL, ts: MESSAGE_TS, text: 'Rejected by Grace Hopper in Slack' });
  });
});
