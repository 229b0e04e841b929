/**
 * The housekeeping a deployment does on its own, written once and run on both engines that carry work: the
 * queued one (PostgreSQL, BullMQ workers with their maintenance schedule) and the embedded one (PGlite, the
 * in-process runner with its timers). The reconciler gives a run whose job was lost a new visit, the retention
 * purge empties the documents of old runs, a review's channels hear "waiting", "nears expiry" and
 * "expired" in that order, once each, and a review's SLA reminds, then escalates. Each runs on its schedule,
 * as configured by HOUSEKEEPING_ENV.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { submitRun } from '../../src/intake/submit-run.ts';
import { saveNotificationSettings } from '../../src/notifications/settings.ts';
import type { Clock } from '../../src/ports.ts';
import type { System } from '../../src/system.ts';
import { registerExamples, settle, submit, TENANT } from '../support/pipeline.ts';
import { eventually } from '../support/test-system.ts';

/** Every schedule at its shortest, and no grace: a run without its job is requeued at the next pass. */
export const HOUSEKEEPING_ENV = {
  VETTED_RECONCILE_INTERVAL_MS: '1000',
  VETTED_RECONCILE_GRACE_MS: '0',
  VETTED_PURGE_INTERVAL_MS: '1000',
  VETTED_WEBHOOK_SECRET: 'housekeeping-webhook-secret-0123',
  // The receiver is on loopback, which a webhook target may only be with this.
  VETTED_WEBHOOK_ALLOW_PRIVATE: 'true',
  LOG_LEVEL: 'silent',
};

/** A clock the purge scenario moves forward (the runs it made ended long ago, as far as the system can tell). */
export interface MovableClock extends Clock {
  advance(ms: number): void;
}

export function movableClock(): MovableClock {
  let offset = 0;
  return { now: () => new Date(Date.now() + offset), advance: (ms) => (offset += ms) };
}

export interface HousekeepingHarness {
  system: System;
  dispose(): Promise<void>;
}

const DAY_MS = 86_400_000;

export function housekeepingScenarios(name: string, open: (env: Record<string, string>, clock: MovableClock) => Promise<HousekeepingHarness>): void {
  describe(`housekeeping scenarios: ${name}`, () => {
    const clock = movableClock();
    const received: { type: string; reviewId: string }[] = [];
    const receiver: Server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const event = JSON.parse(body) as { type: string; subject: { reviewId: string } };
        received.push({ type: event.type, reviewId: event.subject.reviewId });
        response.writeHead(200).end('ok');
      });
    });
    let harness: HousekeepingHarness;
    let system: System;

    beforeAll(async () => {
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      harness = await open(HOUSEKEEPING_ENV, clock);
      system = harness.system;
      await registerExamples(system);
      const webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      await saveNotificationSettings(system, TENANT, { webhookUrl, nearExpirySeconds: 3 }, 'test', 'replace');
    }, 60_000);
    afterAll(async () => {
      await harness?.dispose();
      await new Promise((resolve) => receiver.close(resolve));
    });

    it('the reconciler gives a run whose job was lost (an enqueue lost to a crash) a new visit; it executes once', async () => {
      const losing = { ...system, dispatch: { ...system.dispatch, enqueueStage: async () => undefined } };
      const { run } = await submitRun(losing, { tenantId: TENANT, request: { model: 'black-forest-labs/flux-schnell', prompt: 'a lost kite' }, actor: 'test' });
      const done = await settle(system, run.id, ['completed'], 30_000);
      expect((await system.store.events(done.id)).map((event) => event.type)).toContain('run.requeued');
      expect(await system.store.ledger.listForRun(done.id)).toHaveLength(1);
    }, 60_000);

    it('a parked review is told to its channels as waiting, nearing expiry, then expired: once each, in order', async () => {
      const run = await submit(system, { model: 'black-forest-labs/flux-schnell', prompt: 'a heron', policy: { mode: 'require_human', reviewTtlSeconds: 6 } });
      const parked = await settle(system, run.id, ['awaiting_human']);
      const reviewId = parked.pendingReviewId!;
      await settle(system, run.id, ['expired'], 30_000);
      const rows = await eventually(async () => {
        const sent = (await system.notifications.deliveriesOf('review', reviewId)).filter((row) => row.status === 'sent');
        return sent.length === 3 ? sent : undefined;
      }, 30_000, 'the three notifications');
      expect(rows.map((row) => row.event).sort()).toEqual(['expired', 'expiring', 'waiting']);
      expect(received.filter((event) => event.reviewId === reviewId).map((event) => event.type)).toEqual([
        'notification.review.waiting',
        'notification.review.expiring',
        'notification.review.expired',
      ]);
    }, 60_000);

    it("a review's SLA reminds, then escalates, on the timers each engine keeps: once each, in order", async () => {
      const sla = { remindAfterSeconds: 1, escalateAfterSeconds: 2, escalateTo: { reviewers: ['rv-lead'] } };
      const run = await submit(system, { model: 'black-forest-labs/flux-schnell', prompt: 'a slow heron', policy: { mode: 'require_human', reviewTtlSeconds: 600, sla } });
      await settle(system, run.id, ['awaiting_human']);
      const reviewEvents = async () => (await system.store.events(run.id)).map((event) => event.type).filter((type) => type.startsWith('review.'));
      await eventually(async () => ((await reviewEvents()).includes('review.escalated') ? true : undefined), 30_000, 'the escalation');
      expect(await reviewEvents()).toEqual(['review.created', 'review.reminded', 'review.escalated']);
      expect((await system.store.get(run.id))?.pendingReview?.sla).toMatchObject({ escalatesTo: { reviewers: ['rv-lead'] }, escalatedAt: expect.any(String) });
    }, 60_000);

    // Last: it moves the clock 8 days forward.
    it('the retention purge empties the documents of a run that ended longer ago than its tenant keeps them', async () => {
      await system.retention.upsert({ tenantId: TENANT, documentsDays: 7, maskPii: false, updatedBy: 'test' });
      const run = await settle(system, (await submit(system, { model: 'black-forest-labs/flux-schnell', prompt: 'an old kite' })).id, ['completed']);
      expect(run.purgedAt).toBeNull();
      clock.advance(8 * DAY_MS);
      const purged = await eventually(async () => (await system.store.get(run.id))?.purgedAt ?? undefined, 30_000, 'the scheduled purge');
      expect(purged).toBeInstanceOf(Date);
      expect((await system.store.events(run.id)).at(-1)?.type).toBe('run.purged');
    }, 60_000);
  });
}
