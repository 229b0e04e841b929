/**
 * Notifications through real receivers on loopback: a Slack-compatible webhook and the signed webhook on a
 * node:http server, email on an smtp-server. Each channel fails once on purpose; BullMQ retries the job with
 * backoff and the delivery ledger keeps every channel to one send per event, also when the same notification
 * is processed again (a retry, a second worker).
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from '../../src/delivery/webhook-signature.ts';
import type { NotificationJob } from '../../src/engine/dispatch.ts';
import type { ReviewTask } from '../../src/generated/contracts.ts';
import { createNotifier } from '../../src/notifications/notify.ts';
import { notificationJobId } from '../../src/queue/queues.ts';
import { registerTaskType } from '../../src/tasks/task-types.ts';
import { createApiHarness, json, type ApiHarness } from '../support/api.ts';
import { BIN, processEnv } from '../support/mcp.ts';
import { settle } from '../support/pipeline.ts';
import { smtpReceiver } from '../support/smtp-receiver.ts';
import { eventually } from '../support/test-system.ts';

const SECRET = 'test-webhook-secret-0123456789';
const CONSOLE = 'https://vetted.test/console';

interface Received {
  path: string;
  status: number;
  body: string;
  headers: IncomingMessage['headers'];
}

/** A loopback HTTP receiver: answers 500 to the first `failures[path]` requests on a path, then 200. */
function httpReceiver() {
  const received: Received[] = [];
  const failures: Record<string, number> = {};
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const path = request.url ?? '';
      const fail = (failures[path] ?? 0) > 0;
      if (fail) failures[path] = (failures[path] ?? 0) - 1;
      const status = fail ? 500 : 200;
      received.push({ path, status, body, headers: request.headers });
      response.writeHead(status).end(fail ? 'down' : 'ok');
    });
  });
  return { server, received, failures };
}

const http = httpReceiver();
const smtp = smtpReceiver();
let api: ApiHarness;
let base: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => http.server.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => smtp.server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
  const smtpPort = (smtp.server.server.address() as AddressInfo).port;
  api = await createApiHarness({
    VETTED_SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    // The receivers are on loopback, which webhook targets may not be without this (as in api-control's test).
    VETTED_WEBHOOK_ALLOW_PRIVATE: 'true',
    VETTED_CONSOLE_URL: CONSOLE,
  });
  const settings = { slackWebhookUrl: `${base}/slack`, email: 'ops@example.test', webhookUrl: `${base}/hook`, nearExpirySeconds: 3 };
  const saved = await api.call('PUT', '/api/notification-settings', { key: api.keys.admin, body: settings });
  expect(saved.statusCode, saved.body).toBe(200);
  await registerTaskType(api.system.tasks, 't1', JSON.parse(readFileSync('examples/task-types/lgv-troubleshooting.task-type.json', 'utf8')));
});

afterAll(async () => {
  await api?.close();
  await new Promise((resolve) => http.server.close(resolve));
  await new Promise<void>((resolve) => smtp.server.close(() => resolve()));
});

/** What the HTTP receiver got for one subject and event, by path. */
function deliveries(path: string, subjectId: string, type: string): Received[] {
  return http.received.filter((r) => r.path === path && r.body.includes(subjectId) && (path === '/hook' ? r.body.includes(`"type":"${type}"`) : r.body.includes(type)));
}

async function parked(policy: Record<string, unknown>) {
  const response = await api.call('POST', '/api/runs', { key: api.keys.submitter, body: { model: 'black-forest-labs/flux-schnell', prompt: 'a heron', policy } });
  expect(response.statusCode, response.body).toBe(202);
  const run = await settle(api.system, json<{ id: string }>(response).id, ['awaiting_human']);
  return { runId: run.id, reviewId: run.pendingReview!.reviewId, payloadHash: run.pendingReview!.payloadHash };
}

describe('a review starts waiting', () => {
  it('each channel delivers once per event: a forced failure is retried with backoff, and what was sent is not sent again', async () => {
    http.failures['/slack'] = 1;
    smtp.failures.count = 1;
    const { runId, reviewId } = await parked({ mode: 'require_human', reviewTtlSeconds: 3600 });

    const ledger = await eventually(async () => {
      const rows = await api.system.notifications.deliveriesOf('review', reviewId);
      const waiting = rows.filter((row) => row.event === 'waiting');
      return waiting.length === 3 && waiting.every((row) => row.status === 'sent') ? waiting : undefined;
    }, 30_000, 'the three channels to have sent');
    expect(Object.fromEntries(ledger.map((row) => [row.channel, row.attempts]))).toEqual({ slack: 2, email: 2, webhook: 1 });

    const slack = deliveries('/slack', reviewId, 'is waiting');
    expect(slack.map((r) => r.status)).toEqual([500, 200]);
    const message = JSON.parse(slack[1]!.body) as { text: string; blocks: { type: string; elements?: { url: string }[] }[] };
    expect(message.text).toContain('Review is waiting for a person: payload review on black-forest-labs/flux-schnell');
    expect(message.blocks.find((b) => b.type === 'actions')?.elements?.[0]?.url).toBe(`${CONSOLE}/reviews/${reviewId}`);

    const hook = deliveries('/hook', reviewId, 'notification.review.waiting');
    expect(hook).toHaveLength(1);
    expect(verifyWebhookSignature(SECRET, String(hook[0]!.headers['vetted-signature']), hook[0]!.body)).toBe(true);
    expect(JSON.parse(hook[0]!.body)).toMatchObject({ type: 'notification.review.waiting', tenantId: 't1', subject: { reviewId, runId }, link: `${CONSOLE}/reviews/${reviewId}` });

    const mail = smtp.messages.filter((m) => m.includes(reviewId));
    expect(mail).toHaveLength(1);
    expect(smtp.failures.refused).toBe(1);
    expect(mail[0]).toContain('Subject: [Vetted] Review is waiting for a person');
    expect(mail[0]).toContain(`Message-ID: <review.${reviewId}.waiting@vetted>`);

    // The same notification again, twice at once, as a retried job and a second worker would process it.
    const notifier = createNotifier(api.system);
    const job: NotificationJob = { tenantId: 't1', subject: 'review', subjectId: reviewId, runId, event: 'waiting' };
    try {
      await Promise.all([notifier.process(job), notifier.process(job)]);
    } finally {
      notifier.close();
    }
    expect(deliveries('/slack', reviewId, 'is waiting')).toHaveLength(2);
    expect(deliveries('/hook', reviewId, 'notification.review.waiting')).toHaveLength(1);
    expect(smtp.messages.filter((m) => m.includes(reviewId))).toHaveLength(1);
  });

  it('a review that nears expiry and expires is told too, once per channel and event', async () => {
    const { runId, reviewId } = await parked({ mode: 'require_human', reviewTtlSeconds: 5 });
    await eventually(async () => (deliveries('/slack', reviewId, 'expires soon').length === 1 ? true : undefined), 30_000, 'the nears-expiry message');
    await settle(api.system, runId, ['expired'], 30_000);
    await eventually(async () => (deliveries('/slack', reviewId, 'expired without a decision').length === 1 ? true : undefined), 30_000, 'the expired message');
    const sent = await eventually(async () => {
      const rows = await api.system.notifications.deliveriesOf('review', reviewId);
      return rows.length === 9 && rows.every((row) => row.status === 'sent') ? rows : undefined;
    }, 30_000, 'every channel to have sent the three events');
    expect(sent.filter((row) => row.channel === 'webhook').map((row) => row.event).sort()).toEqual(['expired', 'expiring', 'waiting']);
  });
});

describe('a review decided before its warning', () => {
  it('takes its nears-expiry job out of Redis; a review nobody decides keeps it and is told', async () => {
    const decided = await parked({ mode: 'require_human', reviewTtlSeconds: 3600 });
    const open = await parked({ mode: 'require_human', reviewTtlSeconds: 3600 });
    const queue = api.system.queues.notifications;
    const warningOf = (reviewId: string) => notificationJobId({ tenantId: 't1', subject: 'review', subjectId: reviewId, event: 'expiring' });
    // The "waiting" notice schedules the warning, nearExpirySeconds (3) before the review's hour is up.
    await eventually(async () => {
      const states = await Promise.all([queue.getJobState(warningOf(decided.reviewId)), queue.getJobState(warningOf(open.reviewId))]);
      return states.every((state) => state === 'delayed') ? true : undefined;
    }, 30_000, 'both warnings to be scheduled');

    const answer = await api.call('POST', `/api/runs/${decided.runId}/decision`, {
      key: api.keys.reviewer, body: { reviewId: decided.reviewId, payloadHash: decided.payloadHash, action: 'approve' },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(await queue.getJobState(warningOf(decided.reviewId))).toBe('unknown');

    // The open review's warning is still there and goes out when it is due (brought forward here, not waited for).
    expect(await queue.getJobState(warningOf(open.reviewId))).toBe('delayed');
    await (await queue.getJob(warningOf(open.reviewId)))!.promote();
    await eventually(async () => (deliveries('/slack', open.reviewId, 'expires soon').length === 1 ? true : undefined), 30_000, 'the open review\'s warning');
    expect(deliveries('/slack', decided.reviewId, 'expires soon')).toEqual([]);
  });
});

describe('a task starts waiting', () => {
  it('low confidence, high impact: the channels hear of it with a link to the task; an automatic approval tells nobody', async () => {
    const routine = json<ReviewTask>(await api.call('POST', '/api/tasks', { key: api.keys.submitter, body: JSON.parse(readFileSync('examples/tasks/lgv-battery-routine.json', 'utf8')) }));
    const escalated = json<ReviewTask>(await api.call('POST', '/api/tasks', { key: api.keys.submitter, body: JSON.parse(readFileSync('examples/tasks/lgv-drive-fault.json', 'utf8')) }));
    expect([routine.status, escalated.status]).toEqual(['approved', 'pending']);
    const slack = await eventually(async () => deliveries('/slack', escalated.id, 'Task is waiting').at(0), 30_000, 'the task message');
    expect(slack.body).toContain('lgv-troubleshooting (confidence low, impact high)');
    expect(slack.body).toContain(`${CONSOLE}/tasks/${escalated.id}`);
    expect(await api.system.notifications.deliveriesOf('task', routine.id)).toEqual([]);
  });
});

describe('settings', () => {
  it('are per tenant, for admins; targets follow the callbackUrl rules; the CLI changes what it is given', async () => {
    expect((await api.call('GET', '/api/notification-settings', { key: api.keys.reviewer })).statusCode).toBe(403);
    const other = json<Record<string, unknown>>(await api.call('GET', '/api/notification-settings', { key: (await api.system.apiKeys.create({ tenantId: 't2', role: 'admin' })).key }));
    expect(other).toMatchObject({ slackWebhookUrl: null, email: null, webhookUrl: null, nearExpirySeconds: 600, events: ['waiting', 'expiring', 'expired'] });
    const metadata = await api.call('PUT', '/api/notification-settings', { key: api.keys.admin, body: { slackWebhookUrl: 'http://169.254.169.254/latest' } });
    expect(metadata.statusCode).toBe(400);
    expect(json(metadata)).toMatchObject({ field: 'slackWebhookUrl', detail: expect.stringContaining('slackWebhookUrl') });
    expect(json(await api.call('PUT', '/api/notification-settings', { key: api.keys.admin, body: { email: 'not an address' } }))).toMatchObject({ field: 'email' });

    const { stdout } = await promisify(execFile)(process.execPath, [BIN, 'notifications', 'set', '--tenant', 't1', '--email', 'none', '--events', 'waiting,expired'], {
      env: processEnv(api.system, { VETTED_SMTP_URL: 'smtp://127.0.0.1:1', VETTED_WEBHOOK_ALLOW_PRIVATE: 'true', VETTED_WEBHOOK_SECRET: SECRET }),
    });
    expect(JSON.parse(stdout)).toMatchObject({ slackWebhookUrl: `${base}/slack`, email: null, webhookUrl: `${base}/hook`, nearExpirySeconds: 3, events: ['waiting', 'expired'] });
  });
});
