/**
 * An "expired" notice whose job was lost between the expiry's commit and its enqueue (the process died, Redis
 * was away) is queued again by the reconciler's pass and reaches the receiver exactly once; a pass after it,
 * or the notice processed twice, sends nothing more.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commit } from '../../src/engine/commit.ts';
import type { NotificationJob } from '../../src/engine/dispatch.ts';
import { createNotifier, restoreExpiredNotices } from '../../src/notifications/notify.ts';
import { saveNotificationSettings } from '../../src/notifications/settings.ts';
import { registerExamples, settle, submit } from '../support/pipeline.ts';
import { startWorkers } from '../../workers/start-workers.ts';
import { createTestSystem, eventually, type TestSystem } from '../support/test-system.ts';

const received: string[] = [];
const receiver: Server = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString()));
  request.on('end', () => {
    received.push(body);
    response.writeHead(200).end('ok');
  });
});
let system: TestSystem;
let workers: { close(): Promise<void> };

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  system = await createTestSystem({ VETTED_WEBHOOK_SECRET: 'test-webhook-secret-0123456789', VETTED_WEBHOOK_ALLOW_PRIVATE: 'true' });
  workers = startWorkers(system);
  await registerExamples(system);
  await saveNotificationSettings(system, 't1', { webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, events: ['expired'] }, 'test', 'replace');
});

afterAll(async () => {
  await workers?.close();
  await system?.dispose();
  await new Promise((resolve) => receiver.close(resolve));
});

describe('a lost "expired" notice', () => {
  it('is restored by the reconciler and delivered exactly once', async () => {
    const run = await submit(system, { model: 'black-forest-labs/flux-schnell', prompt: 'a heron', policy: { mode: 'require_human', reviewTtlSeconds: 3600 } }, 't1');
    const parked = await settle(system, run.id, ['awaiting_human']);
    const reviewId = parked.pendingReview!.reviewId;

    // The expiry commits, and its notice is never queued: Redis is away at that moment.
    const lost: NotificationJob[] = [];
    const away = { ...system, dispatch: { ...system.dispatch, enqueueNotification: async (job: NotificationJob) => {
      lost.push(job);
      throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
    } } };
    expect(await commit(away, { kind: 'expire', run: parked })).toBeTruthy();
    expect((await system.store.get(run.id))?.status).toBe('expired');
    expect(lost.map((job) => job.event)).toEqual(['expired']);
    expect(await system.notifications.deliveriesOf('review', reviewId)).toEqual([]);

    // The reconciler's pass finds it and queues it again; the notification worker sends it.
    const queued: NotificationJob[] = [];
    const watching = { ...system, dispatch: { enqueueNotification: async (job: NotificationJob) => {
      queued.push(job);
      await system.dispatch.enqueueNotification(job);
    } } };
    expect(await restoreExpiredNotices(watching, { graceMs: 0 })).toBe(1);
    expect(queued).toEqual([{ tenantId: 't1', subject: 'review', subjectId: reviewId, runId: run.id, event: 'expired' }]);
    const sent = await eventually(async () => {
      const rows = await system.notifications.deliveriesOf('review', reviewId);
      return rows.length === 1 && rows[0]!.status === 'sent' ? rows : undefined;
    }, 30_000, 'the restored notice to be sent');
    expect(sent[0]).toMatchObject({ event: 'expired', channel: 'webhook' });

    // Processed again (a duplicate of the job) and another pass: nothing more is sent, nothing is queued.
    const notifier = createNotifier(system);
    try {
      await notifier.process(queued[0]!);
    } finally {
      notifier.close();
    }
    expect(await restoreExpiredNotices(watching, { graceMs: 0 })).toBe(0);
    expect(received.filter((body) => body.includes(reviewId))).toHaveLength(1);
    expect(JSON.parse(received.find((body) => body.includes(reviewId))!)).toMatchObject({ type: expect.stringContaining('expired') });
  }, 120_000);

  it('is not restored inside the grace period, while its own job may still be on its way', async () => {
    const run = await submit(system, { model: 'black-forest-labs/flux-schnell', prompt: 'a crane', policy: { mode: 'require_human', reviewTtlSeconds: 3600 } }, 't1');
    const parked = await settle(system, run.id, ['awaiting_human']);
    const away = { ...system, dispatch: { ...system.dispatch, enqueueNotification: async () => { throw new Error('Redis away'); } } };
    await commit(away, { kind: 'expire', run: parked });
    const queued: NotificationJob[] = [];
    const watching = { ...system, dispatch: { enqueueNotification: async (job: NotificationJob) => void queued.push(job) } };
    await restoreExpiredNotices(watching, { graceMs: 10 * 60_000 });
    expect(queued.filter((job) => job.runId === run.id)).toEqual([]);
  }, 120_000);
});

