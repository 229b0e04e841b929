/**
 * The embedded runner does what BullMQ's workers do, in process: a parked review expires on its timer,
 * webhooks reach the run's callback URL signed, and a run the last process left mid-stage, or a review
 * warning or an SLA step it had on a timer, is picked up when the next one starts on the same data directory. PGlite in this process; no PostgreSQL or Redis server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createEmbeddedSystem, type EmbeddedSystem } from '../../src/embedded/embedded-system.ts';
import { saveNotificationSettings } from '../../src/notifications/settings.ts';
import { registerExamples, settle, submit } from '../support/pipeline.ts';
import { eventually } from '../support/test-system.ts';

const home = mkdtempSync(path.join(tmpdir(), 'vetted-embedded-runner-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

function config(env: Record<string, string> = {}) {
  return loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: 'postgres://127.0.0.1:1/unused', REDIS_URL: 'redis://127.0.0.1:1', ...env });
}

async function withSystem<T>(system: EmbeddedSystem, fn: (system: EmbeddedSystem) => Promise<T>): Promise<T> {
  try {
    return await fn(system);
  } finally {
    await system.close();
  }
}

describe('the embedded runner', () => {
  it('expires a parked review when its time is up, with no expiry queue', async () => {
    await withSystem(await createEmbeddedSystem(config({ VETTED_REVIEW_TTL_SECONDS: '10' })), async (system) => {
      await registerExamples(system);
      const run = await submit(system, { model: 'black-forest-labs/flux-schnell', prompt: 'a fox', policy: 'require_human' });
      expect((await settle(system, run.id)).status).toBe('awaiting_human');
      const expired = await settle(system, run.id, ['expired']);
      expect(expired.error).toMatchObject({ code: 'REVIEW_EXPIRED' });
    });
  }, 120_000);

  it('delivers webhooks to the callback URL, signed', async () => {
    const received: { type: string; signed: boolean }[] = [];
    const receiver = createServer((request: IncomingMessage, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        received.push({ type: (JSON.parse(body) as { type: string }).type, signed: typeof request.headers['vetted-signature'] === 'string' });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    try {
      await withSystem(await createEmbeddedSystem(config({ VETTED_WEBHOOK_SECRET: 'embedded-webhook-secret-0123', VETTED_WEBHOOK_ALLOW_PRIVATE: 'true' })), async (system) => {
        await registerExamples(system);
        const run = await submit(system, { model: 'black-forest-labs/flux-schnell', prompt: 'a fox, seed=3', callbackUrl });
        expect((await settle(system, run.id)).status).toBe('completed');
        await eventually(async () => (received.some((event) => event.type === 'run.completed') ? true : undefined), 30_000, 'the run.completed webhook');
        expect(received.every((event) => event.signed)).toBe(true);
      });
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  }, 120_000);

  it('picks up, on the next start, a run the last process left without its job', async () => {
    const dataDir = path.join(home, 'restart');
    const runId = await withSystem(await createEmbeddedSystem(config(), { dataDir }), async (system) => {
      await registerExamples(system);
      // The runner stops first: the run is stored queued, and its job dies with this process.
      await system.runner.close();
      return (await submit(system, { model: 'black-forest-labs/flux-schnell', prompt: 'a fox, seed=4' })).id;
    });
    await withSystem(await createEmbeddedSystem(config(), { dataDir }), async (system) => {
      expect((await settle(system, runId)).status).toBe('completed');
      const events = await system.store.events(runId, { limit: 100 });
      expect(events.map((event) => event.type)).toContain('run.requeued');
    });
  }, 180_000);

  it("restores, on the next start, a parked review's \"nears expiry\" warning that the last process had on a timer", async () => {
    const dataDir = path.join(home, 'warning');
    const receiver = createServer((request, response) => {
      request.resume();
      request.on('end', () => response.writeHead(200).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const env = { VETTED_WEBHOOK_SECRET: 'embedded-webhook-secret-0123', VETTED_WEBHOOK_ALLOW_PRIVATE: 'true' };
    const sentOf = async (system: EmbeddedSystem, reviewId: string, event: string) =>
      (await system.notifications.deliveriesOf('review', reviewId)).some((row) => row.event === event && row.status === 'sent') ? true : undefined;
    try {
      const reviewId = await withSystem(await createEmbeddedSystem(config(env), { dataDir }), async (system) => {
        await registerExamples(system);
        const webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
        await saveNotificationSettings(system, 't1', { webhookUrl, nearExpirySeconds: 40 }, 'test', 'replace');
        const run = await submit(system, { model: 'black-forest-labs/flux-schnell', prompt: 'a fox', policy: { mode: 'require_human', reviewTtlSeconds: 60 } });
        const parked = await settle(system, run.id, ['awaiting_human']);
        await eventually(() => sentOf(system, parked.pendingReviewId!, 'waiting'), 30_000, 'the waiting notification');
        // The warning is due in about 20 seconds: this process ends before it.
        expect(await sentOf(system, parked.pendingReviewId!, 'expiring')).toBeUndefined();
        return parked.pendingReviewId!;
      });
      await withSystem(await createEmbeddedSystem(config(env), { dataDir }), async (system) => {
        await eventually(() => sentOf(system, reviewId, 'expiring'), 60_000, 'the restored warning');
        expect((await system.notifications.deliveriesOf('review', reviewId)).map((row) => row.event)).toEqual(['waiting', 'expiring']);
      });
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  }, 180_000);

  it('reminds and escalates a parked review on keyed timers, in order; a timer the last process had is restored at the next start', async () => {
    const dataDir = path.join(home, 'sla');
    const reviewTypes = async (system: EmbeddedSystem, runId: string) => (await system.store.events(runId)).map((event) => event.type).filter((type) => type.startsWith('review.'));
    const sla = { remindAfterSeconds: 1, escalateAfterSeconds: 2, escalateTo: { reviewers: ['rv-lead'] } };
    const runId = await withSystem(await createEmbeddedSystem(config(), { dataDir }), async (system) => {
      await registerExamples(system);
      const quick = await submit(system, { model: 'black-forest-labs/flux-schnell', prompt: 'a fox', policy: { mode: 'require_human', reviewTtlSeconds: 600, sla } });
      await settle(system, quick.id, ['awaiting_human']);
      await eventually(async () => ((await reviewTypes(system, quick.id)).includes('review.escalated') ? true : undefined), 30_000, 'the escalation');
      expect(await reviewTypes(system, quick.id)).toEqual(['review.created', 'review.reminded', 'review.escalated']);
      expect((await system.store.get(quick.id))?.pendingReview?.sla).toMatchObject({ escalatesTo: { reviewers: ['rv-lead'] }, escalatedAt: expect.any(String) });

      // This one's reminder is due after this process ends.
      const later = await submit(system, { model: 'black-forest-labs/flux-schnell', prompt: 'a fox, seed=9', policy: { mode: 'require_human', reviewTtlSeconds: 600, sla: { remindAfterSeconds: 8 } } });
      await settle(system, later.id, ['awaiting_human']);
      expect(await reviewTypes(system, later.id)).toEqual(['review.created']);
      return later.id;
    });
    await withSystem(await createEmbeddedSystem(config(), { dataDir }), async (system) => {
      await eventually(async () => ((await reviewTypes(system, runId)).includes('review.reminded') ? true : undefined), 30_000, 'the restored reminder');
      expect(await reviewTypes(system, runId)).toEqual(['review.created', 'review.reminded']);
    });
  }, 120_000);
});
