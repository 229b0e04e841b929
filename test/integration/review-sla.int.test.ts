/**
 * Review SLAs on the queued engine (PostgreSQL, BullMQ, the real workers), driven through the API with short
 * policy times: the reminder and then the escalation fire on their delayed jobs, in that order, each an event
 * and a log line; the escalation reaches a loopback receiver and moves the review to its team; a decision first
 * makes the timers do nothing; a step job lost from Redis is scheduled again by the reconciler and still fires.
 * Nothing here reads the wall clock: each check waits for an event or a job state.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcile } from '../../src/engine/reconciler.ts';
import { slaStepJobId } from '../../src/engine/sla-timers.ts';
import { createApiHarness, json, type ApiHarness } from '../support/api.ts';
import { settle } from '../support/pipeline.ts';
import { eventually } from '../support/test-system.ts';

const received: { path: string; body: string }[] = [];
const receiver: Server = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString()));
  request.on('end', () => {
    received.push({ path: request.url ?? '', body });
    response.writeHead(200).end('ok');
  });
});
let api: ApiHarness;

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  api = await createApiHarness({ VETTED_WEBHOOK_ALLOW_PRIVATE: 'true', VETTED_CONSOLE_URL: 'https://vetted.test/console' });
  const base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  // Only "waiting" is chosen: reminders and escalations were asked for by the policy, and go regardless.
  const saved = await api.call('PUT', '/api/notification-settings', { body: { slackWebhookUrl: `${base}/slack`, webhookUrl: `${base}/hook`, events: ['waiting'] } });
  expect(saved.statusCode, saved.body).toBe(200);
});

afterAll(async () => {
  await api?.close();
  await new Promise((resolve) => receiver.close(resolve));
});

async function parked(policy: Record<string, unknown>) {
  const response = await api.call('POST', '/api/runs', { key: api.keys.submitter, body: { model: 'black-forest-labs/flux-schnell', prompt: 'a heron', policy: { mode: 'require_human', ...policy } } });
  expect(response.statusCode, response.body).toBe(202);
  const run = await settle(api.system, json<{ id: string }>(response).id, ['awaiting_human']);
  return { runId: run.id, reviewId: run.pendingReviewId!, payloadHash: run.pendingReview!.payloadHash };
}

const reviewEvents = async (runId: string) => (await api.system.store.events(runId)).filter((event) => event.type.startsWith('review.'));
const jobState = (reviewId: string, step: 'remind' | 'escalate') => api.system.queues.expiry.getJobState(slaStepJobId({ reviewId, step }));

describe('review SLA on the queued engine', () => {
  it('reminds, then escalates to the other team, on their delayed jobs: events in order, log lines, a notification, the read model', async () => {
    const { runId, reviewId } = await parked({ team: 'night', reviewTtlSeconds: 600, sla: { remindAfterSeconds: 1, escalateAfterSeconds: 2, escalateTo: { team: 'leads' } } });

    const detail = json<{ sla: Record<string, unknown>; review: { team: string } }>(await api.call('GET', `/api/reviews/${reviewId}`, { key: api.keys.reviewer }));
    expect(detail.sla).toMatchObject({ remindAt: expect.any(String), escalateAt: expect.any(String), escalatesTo: { team: 'leads' } });
    expect(Date.parse(String(detail.sla.escalateAt)) - Date.parse(String(detail.sla.remindAt))).toBe(1000);
    expect(detail.review.team).toBe('night');

    const events = await eventually(async () => {
      const trail = await reviewEvents(runId);
      return trail.some((event) => event.type === 'review.escalated') ? trail : undefined;
    }, 30_000, 'the escalation');
    expect(events.map((event) => event.type)).toEqual(['review.created', 'review.reminded', 'review.escalated']);
    expect(events[1]).toMatchObject({ actor: 'system:sla', data: { reviewId, who: 'team:night' } });
    expect(events[2]).toMatchObject({ actor: 'system:sla', data: { reviewId, to: { team: 'leads' }, from: { team: 'night', claimedBy: null } } });
    const logged = api.system.logs.filter((line) => line.reviewId === reviewId).map((line) => line.msg);
    expect(logged.filter((msg) => msg === 'HITL_REMINDED' || msg === 'HITL_ESCALATED')).toEqual(['HITL_REMINDED', 'HITL_ESCALATED']);

    const hook = await eventually(async () => received.find((r) => r.path === '/hook' && r.body.includes(reviewId) && r.body.includes('notification.review.escalated')), 30_000, 'the escalation webhook');
    expect(JSON.parse(hook.body)).toMatchObject({ type: 'notification.review.escalated', subject: { reviewId, runId }, lines: expect.arrayContaining(['Escalated to: team leads (was team night)']) });
    await eventually(async () => received.find((r) => r.path === '/slack' && r.body.includes(reviewId) && r.body.includes('still waits (reminder)')), 30_000, 'the reminder on Slack');

    const leads = json<{ items: { reviewId: string; team: string; sla: Record<string, unknown> }[] }>(await api.call('GET', '/api/reviews/pending?team=leads', { key: api.keys.reviewer }));
    expect(leads.items.find((item) => item.reviewId === reviewId)).toMatchObject({ team: 'leads', sla: { escalatedFrom: { team: 'night' }, escalatedAt: expect.any(String) } });
    const night = json<{ items: { reviewId: string }[] }>(await api.call('GET', '/api/reviews/pending?team=night', { key: api.keys.reviewer }));
    expect(night.items.map((item) => item.reviewId)).not.toContain(reviewId);

    const breaches = await api.system.metrics.registry.getSingleMetric('vetted_review_sla_breaches_total')?.get();
    expect(breaches?.values.filter((v) => v.labels.team === 'night').map((v) => [v.labels.step, v.value]).sort()).toEqual([['escalate', 1], ['remind', 1]]);
  }, 60_000);

  it('a decision before the reminder: the step jobs run and do nothing', async () => {
    const { runId, reviewId, payloadHash } = await parked({ reviewTtlSeconds: 600, sla: { remindAfterSeconds: 1, escalateAfterSeconds: 2, escalateTo: { reviewers: ['rv-lead'] } } });
    expect(await jobState(reviewId, 'remind')).toBe('delayed');
    const decided = await api.call('POST', `/api/runs/${runId}/decision`, { key: api.keys.reviewer, body: { reviewId, payloadHash, action: 'reject', reason: 'not this one' } });
    expect(decided.statusCode, decided.body).toBe(200);
    // A job that ran is removed: both timers fired, found the review decided, and left.
    await eventually(async () => ((await jobState(reviewId, 'escalate')) === 'unknown' && (await jobState(reviewId, 'remind')) === 'unknown' ? true : undefined), 30_000, 'both step jobs to have run');
    expect((await reviewEvents(runId)).map((event) => event.type)).toEqual(['review.created', 'review.decided']);
    expect(received.filter((r) => r.body.includes(reviewId) && (r.body.includes('reminder') || r.body.includes('escalated')))).toEqual([]);

    const firstAction = await api.system.metrics.registry.getSingleMetric('vetted_review_time_to_first_action_seconds')?.get();
    expect(firstAction?.values.some((v) => (v as { metricName?: string }).metricName?.endsWith('_count') && v.labels.team === 'none' && v.value >= 1)).toBe(true);
  }, 60_000);

  it('a step job lost from Redis is scheduled again by the reconciler, and fires', async () => {
    const { runId, reviewId } = await parked({ reviewTtlSeconds: 600, sla: { remindAfterSeconds: 3 } });
    const job = await api.system.queues.expiry.getJob(slaStepJobId({ reviewId, step: 'remind' }));
    expect(job).toBeDefined();
    await job!.remove();
    expect(await jobState(reviewId, 'remind')).toBe('unknown');

    const restored = await eventually(async () => {
      const result = await reconcile(api.system, api.system.queues, { graceMs: 0 });
      return result.slaStepsRestored > 0 ? result : undefined;
    }, 10_000, 'the reconciler to restore the step');
    expect(restored.slaStepsRestored).toBe(1);
    expect(await jobState(reviewId, 'remind')).toMatch(/delayed|waiting|active/);
    // Once live again, a second pass leaves it alone.
    expect((await reconcile(api.system, api.system.queues, { graceMs: 0 })).slaStepsRestored).toBe(0);

    await eventually(async () => ((await reviewEvents(runId)).some((event) => event.type === 'review.reminded') ? true : undefined), 30_000, 'the restored reminder');
    expect((await reviewEvents(runId)).map((event) => event.type)).toEqual(['review.created', 'review.reminded']);
  }, 60_000);
});
