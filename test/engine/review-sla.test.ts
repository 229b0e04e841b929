/**
 * A review's SLA on the in-process engine with a clock the test moves: the steps are scheduled when the review is
 * raised, each is taken as a move at its time (never before), in order, once; a decision, or a pause, makes a
 * step that fires later do nothing; escalation moves the review to its target and lets go of the claim.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createAdapterRegistry } from '../../src/adapters/registry.ts';
import { registerModel } from '../../src/catalog/model-catalog.ts';
import { loadConfig } from '../../src/config.ts';
import { pauseRun, resumeRun } from '../../src/control/run-control.ts';
import { createInProcessEngine, type InProcessEngine } from '../../src/engine/in-process.ts';
import { runToRest } from '../../src/engine/in-process-runner.ts';
import { takeSlaStep } from '../../src/engine/sla-steps.ts';
import type { RunRow } from '../../src/engine/store.ts';
import { submitRun } from '../../src/intake/submit-run.ts';
import { claimReview, releaseReview } from '../../src/review/claims.ts';
import { decide } from '../../src/review/decide-on-run.ts';

const T0 = Date.parse('2026-11-27T09:00:00.000Z');
const SLA = { remindAfterSeconds: 600, escalateAfterSeconds: 1800, escalateTo: { team: 'leads' } };

function engineAt(): { engine: InProcessEngine; clock: { at: number } } {
  const clock = { at: T0 };
  const config = loadConfig({});
  const engine = createInProcessEngine({ config, adapters: createAdapterRegistry(config), clock: { now: () => new Date(clock.at) } });
  return { engine, clock };
}

async function parked(engine: InProcessEngine, policy: Record<string, unknown>): Promise<RunRow> {
  const source = JSON.parse(readFileSync('examples/models/flux-schnell.model.json', 'utf8')) as Record<string, unknown>;
  await registerModel(engine, { tenantId: 'acme', source });
  const { run } = await submitRun(engine, { tenantId: 'acme', actor: 'test', request: { model: 'black-forest-labs/flux-schnell', prompt: 'a heron', policy } });
  const rested = await runToRest(engine, run.id);
  expect(rested.status).toBe('awaiting_human');
  return rested;
}

const types = async (engine: InProcessEngine, runId: string) => (await engine.store.events(runId)).map((event) => event.type).filter((type) => type.startsWith('review.'));
const job = (run: RunRow, step: 'remind' | 'escalate') => ({ runId: run.id, reviewId: run.pendingReviewId!, step });

describe('review SLA steps', () => {
  it('are scheduled with the review, taken in order at their times, each once; escalation moves the review and ends the claim', async () => {
    const { engine, clock } = engineAt();
    const run = await parked(engine, { mode: 'require_human', team: 'night', reviewTtlSeconds: 7200, sla: SLA });
    const reviewId = run.pendingReviewId!;
    expect(run.pendingReview?.sla).toEqual({ remindAt: '2026-11-27T09:10:00.000Z', escalateAt: '2026-11-27T09:30:00.000Z', escalatesTo: { team: 'leads' } });
    expect(engine.dispatch.slaSteps).toEqual([
      { runId: run.id, reviewId, step: 'remind', at: T0 + 600_000 },
      { runId: run.id, reviewId, step: 'escalate', at: T0 + 1_800_000 },
    ]);

    clock.at = T0 + 60_000;
    await claimReview(engine, { reviewId, tenantId: 'acme', actor: 'reviewer:ada', ttlSeconds: 3600 });
    expect(await takeSlaStep(engine, job(run, 'remind'))).toBe('not_due');

    clock.at = T0 + 600_000;
    expect(await takeSlaStep(engine, job(run, 'remind'))).toBe('taken');
    expect(await takeSlaStep(engine, job(run, 'remind'))).toBe('gone');
    const reminded = await engine.store.get(run.id);
    expect(reminded?.pendingReview?.sla).toMatchObject({ remindedAt: '2026-11-27T09:10:00.000Z', remindedWho: 'reviewer:ada' });
    expect(reminded?.claimedBy).toBe('reviewer:ada');

    clock.at = T0 + 1_800_000;
    expect(await takeSlaStep(engine, job(run, 'escalate'))).toBe('taken');
    const escalated = await engine.store.get(run.id);
    expect(escalated).toMatchObject({ status: 'awaiting_human', pendingReviewId: reviewId, claimedBy: null });
    expect(escalated?.pendingReview).toMatchObject({ team: 'leads', sla: { escalatedAt: '2026-11-27T09:30:00.000Z', escalatedFrom: { team: 'night', claimedBy: 'reviewer:ada' } } });

    expect(await types(engine, run.id)).toEqual(['review.created', 'review.claimed', 'review.reminded', 'review.escalated']);
    const trail = await engine.store.events(run.id);
    expect(trail.find((event) => event.type === 'review.escalated')?.data).toMatchObject({ reviewId, to: { team: 'leads' }, from: { team: 'night', claimedBy: 'reviewer:ada' } });
    expect(engine.dispatch.notifications.map((n) => n.event)).toEqual(['waiting', 'reminded', 'escalated']);

    const breaches = await engine.metrics.registry.getSingleMetric('vetted_review_sla_breaches_total')?.get();
    expect(breaches?.values.map((v) => [v.labels.step, v.labels.team, v.value])).toEqual([['remind', 'night', 1], ['escalate', 'night', 1]]);
    const firstAction = await engine.metrics.registry.getSingleMetric('vetted_review_time_to_first_action_seconds')?.get();
    expect(firstAction?.values.find((v) => (v as { metricName?: string }).metricName?.endsWith('_sum'))).toMatchObject({ value: 60, labels: { tenant: 'acme', team: 'night', checkpoint: 'payload_review' } });
  });

  it('a decision before the reminder makes both timers do nothing', async () => {
    const { engine, clock } = engineAt();
    const run = await parked(engine, { mode: 'require_human', reviewTtlSeconds: 7200, sla: SLA });
    clock.at = T0 + 30_000;
    await decide(engine, { runId: run.id, body: { reviewId: run.pendingReviewId, payloadHash: run.pendingReview?.payloadHash, action: 'reject', reason: 'no' }, actor: { id: 'reviewer:ada', canOverride: false } });
    clock.at = T0 + 3_600_000;
    expect(await takeSlaStep(engine, job(run, 'remind'))).toBe('gone');
    expect(await takeSlaStep(engine, job(run, 'escalate'))).toBe('gone');
    expect(await types(engine, run.id)).toEqual(['review.created', 'review.decided']);
    expect(engine.dispatch.notifications.map((n) => n.event)).toEqual(['waiting']);
  });

  it('a step due while the run is paused does nothing, and is scheduled again on resume', async () => {
    const { engine, clock } = engineAt();
    const run = await parked(engine, { mode: 'require_human', reviewTtlSeconds: 7200, sla: { remindAfterSeconds: 600 } });
    await pauseRun(engine, { runId: run.id, actor: 'operator' });
    clock.at = T0 + 700_000;
    expect(await takeSlaStep(engine, job(run, 'remind'))).toBe('gone');
    await resumeRun(engine, { runId: run.id, actor: 'operator' });
    expect(engine.dispatch.slaSteps.filter((s) => s.step === 'remind')).toHaveLength(2);
    expect(await takeSlaStep(engine, job(run, 'remind'))).toBe('taken');
    expect(await types(engine, run.id)).toEqual(['review.created', 'review.reminded']);
  });

  it("time to first action is a review's first claim or decision: a decision after a released claim is not one", async () => {
    const firstActions = async (engine: InProcessEngine) => {
      const metric = await engine.metrics.registry.getSingleMetric('vetted_review_time_to_first_action_seconds')?.get();
      const value = (suffix: string) => metric?.values.find((v) => (v as { metricName?: string }).metricName?.endsWith(suffix))?.value;
      return { count: value('_count'), sum: value('_sum') };
    };
    const { engine, clock } = engineAt();
    const run = await parked(engine, { mode: 'require_human', reviewTtlSeconds: 7200 });
    const reviewId = run.pendingReviewId!;
    clock.at = T0 + 45_000;
    await claimReview(engine, { reviewId, tenantId: 'acme', actor: 'reviewer:ada' });
    await releaseReview(engine, { reviewId, tenantId: 'acme', actor: 'reviewer:ada' });
    clock.at = T0 + 90_000;
    await decide(engine, { runId: run.id, body: { reviewId, payloadHash: run.pendingReview?.payloadHash, action: 'reject', reason: 'no' }, actor: { id: 'reviewer:bo', canOverride: false } });
    expect(await firstActions(engine)).toEqual({ count: 1, sum: 45 });

    // Nobody touched this one before its decision: the decision is its first action.
    const other = await parked(engine, { mode: 'require_human', reviewTtlSeconds: 7200 });
    clock.at = T0 + 100_000;
    await decide(engine, { runId: other.id, body: { reviewId: other.pendingReviewId, payloadHash: other.pendingReview?.payloadHash, action: 'reject', reason: 'no' }, actor: { id: 'reviewer:bo', canOverride: false } });
    expect(await firstActions(engine)).toEqual({ count: 2, sum: 45 + (T0 + 100_000 - Date.parse(other.pendingReview!.createdAt)) / 1000 });
  });

  it('a checkpoint of its own: the checkpoint fields replace the policy-wide ones', async () => {
    const { engine } = engineAt();
    const run = await parked(engine, {
      mode: 'require_human', reviewTtlSeconds: 7200,
      sla: { remindAfterSeconds: 600, checkpoints: { payload_review: { remindAfterSeconds: 120, escalateAfterSeconds: 240, escalateTo: { reviewers: ['rv-1', 'rv-2'] } } } },
    });
    expect(run.pendingReview?.sla).toEqual({ remindAt: '2026-11-27T09:02:00.000Z', escalateAt: '2026-11-27T09:04:00.000Z', escalatesTo: { reviewers: ['rv-1', 'rv-2'] } });
  });

  it('a policy whose SLA cannot work is refused at intake, naming the field', async () => {
    const { engine } = engineAt();
    await registerModel(engine, { tenantId: 'acme', source: JSON.parse(readFileSync('examples/models/flux-schnell.model.json', 'utf8')) as Record<string, unknown> });
    const submit = (sla: unknown, extra: Record<string, unknown> = {}) =>
      submitRun(engine, { tenantId: 'acme', actor: 'test', request: { model: 'black-forest-labs/flux-schnell', prompt: 'a heron', policy: { mode: 'require_human', reviewTtlSeconds: 3600, sla, ...extra } } });
    await expect(submit({ escalateAfterSeconds: 60 })).rejects.toMatchObject({ code: 'INVALID_REQUEST', field: 'policy.sla.escalateTo' });
    await expect(submit({ escalateTo: { team: 'leads' } })).rejects.toMatchObject({ field: 'policy.sla.escalateAfterSeconds' });
    await expect(submit({ remindAfterSeconds: 3600 })).rejects.toMatchObject({ field: 'policy.sla.remindAfterSeconds', message: expect.stringContaining('less than policy.reviewTtlSeconds (3600)') });
    await expect(submit({ remindAfterSeconds: 900, escalateAfterSeconds: 600, escalateTo: { team: 'leads' } })).rejects.toMatchObject({ field: 'policy.sla.remindAfterSeconds' });
    await expect(submit({ checkpoints: { payload_review: { escalateAfterSeconds: 4000, escalateTo: { team: 'x' } } } })).rejects.toMatchObject({ field: 'policy.sla.checkpoints.payload_review.escalateAfterSeconds' });
    await expect(submit({ escalateAfterSeconds: 60, escalateTo: { team: 'leads', reviewers: ['a'] } })).rejects.toMatchObject({ field: expect.stringMatching(/^policy\.sla\.escalateTo/) });
    await expect(submit({ remindAfterSeconds: 0 })).rejects.toMatchObject({ field: 'policy.sla.remindAfterSeconds' });
    await expect(submit({ remindAfter: 60 })).rejects.toMatchObject({ field: 'policy.sla.remindAfter' });
  });
});
