/**
 * Whole-run scenarios through the engine's services (intake, decisions, control, expiry), written once and run
 * on two engines: the in-process one (memory store, the runner) in the fast tests, and the real one (PostgreSQL,
 * BullMQ workers) in the integration tests. Same requests, same decisions, same expectations.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHeuristicBuilder } from '../../src/builders/heuristic-builder.ts';
import { registerModel } from '../../src/catalog/model-catalog.ts';
import { cancelRun, pauseRun, resumeRun } from '../../src/control/run-control.ts';
import type { Engine } from '../../src/engine/engine.ts';
import { expireDueReviews } from '../../src/engine/expiry.ts';
import type { RunRow } from '../../src/engine/store.ts';
import { VettedError } from '../../src/errors.ts';
import type { RunStatus } from '../../src/generated/contracts.ts';
import { submitRun } from '../../src/intake/submit-run.ts';
import type { PayloadBuilder } from '../../src/ports.ts';
import { decide } from '../../src/review/decide-on-run.ts';

export interface ScenarioHarness {
  engine: Engine;
  /** Lets the pipeline work until the run rests in one of `statuses` (fails if it rests anywhere else). */
  settle(runId: string, statuses: readonly RunStatus[]): Promise<RunRow>;
  dispose(): Promise<void>;
}

export const SCENARIO_TENANT = 'scenarios';

/** The prompt that makes the scenario builder give up, as an LLM builder does after its own retries. */
export const GIVES_UP = 'BUILDER-GIVES-UP';

/** The heuristic builder, except that it gives up (BUILDER_FAILED) on a prompt holding GIVES_UP. */
export function scenarioBuilder(): PayloadBuilder {
  const heuristic = createHeuristicBuilder();
  return {
    name: 'heuristic',
    deterministic: true,
    async build(input, options) {
      if (input.bundle.prompt.includes(GIVES_UP)) throw new VettedError('BUILDER_FAILED', 'the builder gave up (scripted)');
      return heuristic.build(input, options);
    },
  };
}

function fluxSource(): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL('../../examples/models/flux-schnell.model.json', import.meta.url), 'utf8')) as Record<string, unknown>;
}

const FLUX = 'black-forest-labs/flux-schnell';
const reviewer = { id: 'person:ada', canOverride: false };

export function pipelineScenarios(name: string, open: () => Promise<ScenarioHarness>): void {
  describe(`pipeline scenarios: ${name}`, () => {
    let harness: ScenarioHarness;
    let engine: Engine;
    beforeAll(async () => {
      harness = await open();
      engine = harness.engine;
      await registerModel(engine, { tenantId: SCENARIO_TENANT, source: fluxSource() });
    });
    afterAll(async () => harness.dispose());

    const submit = async (request: Record<string, unknown>) =>
      (await submitRun(engine, { tenantId: SCENARIO_TENANT, request: { model: FLUX, ...request }, actor: 'test' })).run;
    const parked = async (request: Record<string, unknown>) => harness.settle((await submit(request)).id, ['awaiting_human']);
    const approve = (run: RunRow, actor = reviewer) =>
      decide(engine, { runId: run.id, body: { reviewId: run.pendingReviewId, payloadHash: run.pendingReview?.payloadHash, action: 'approve' }, actor, requirePayloadHash: true });
    const eventTypes = async (runId: string) => (await engine.store.events(runId)).map((event) => event.type);

    it('a request executes once, and its trail reads stage by stage', async () => {
      const run = await harness.settle((await submit({ prompt: 'a lighthouse at dusk' })).id, ['completed']);
      expect(run.result).toMatchObject({ provider: 'dry', status: 'succeeded' });
      expect(await engine.store.ledger.listForRun(run.id)).toEqual([expect.objectContaining({ step: 'execute:1', status: 'succeeded' })]);
      expect(await eventTypes(run.id)).toEqual(['run.created', 'stage.completed', 'stage.completed', 'stage.completed', 'stage.completed', 'run.completed']);
    });

    it('require_human parks with one review; an approval bound to its payload executes once', async () => {
      const run = await parked({ prompt: 'a paper crane', policy: 'require_human' });
      expect(run.pendingReview).toMatchObject({ reason: 'policy_requires_human', checkpoint: 'payload_review', kind: 'approval' });
      const { plan } = await approve(run);
      expect(plan.route).toBe('execute');
      const done = await harness.settle(run.id, ['completed']);
      expect(done.pendingReviewId).toBeNull();
      expect(await engine.store.ledger.listForRun(run.id)).toHaveLength(1);
      const types = await eventTypes(run.id);
      expect(types.slice(types.indexOf('review.decided'), types.indexOf('review.decided') + 2)).toEqual(['review.decided', 'run.resumed']);
      expect(await engine.store.decisions(run.id)).toEqual([expect.objectContaining({ actor: 'person:ada', action: 'approve', parsed: expect.objectContaining({ route: 'execute', status: 'executing' }) })]);
    });

    it('an edit is validated again by the engine and executes with the edited value', async () => {
      const run = await parked({ prompt: 'a paper crane', policy: 'require_human' });
      const { plan } = await decide(engine, {
        runId: run.id, body: { reviewId: run.pendingReviewId, payloadHash: run.pendingReview?.payloadHash, action: 'edit', edits: { num_outputs: 3 } }, actor: reviewer, requirePayloadHash: true,
      });
      expect(plan.route).toBe('validate');
      const done = await harness.settle(run.id, ['completed']);
      expect(done.candidate?.payload).toMatchObject({ num_outputs: 3 });
      expect(done.candidate?.provenance.num_outputs).toMatchObject({ source: 'human_edit' });
    });

    it('a rejection cancels the run; the review then takes no decision, and nothing executed', async () => {
      const run = await parked({ prompt: 'a paper crane', policy: 'require_human' });
      await decide(engine, { runId: run.id, body: { reviewId: run.pendingReviewId, action: 'reject', reason: 'not today' }, actor: reviewer });
      const done = await harness.settle(run.id, ['cancelled']);
      expect(done.error).toMatchObject({ code: 'REJECTED', message: 'not today' });
      await expect(approve(run)).rejects.toMatchObject({ code: 'DECISION_CONFLICT', message: expect.stringContaining('reject by') });
      expect(await engine.store.ledger.listForRun(run.id)).toEqual([]);
    });

    it('refuses a stale review, a changed payload, and the loser of two decisions at once', async () => {
      const run = await parked({ prompt: 'a paper crane', policy: 'require_human' });
      const body = { reviewId: run.pendingReviewId, payloadHash: run.pendingReview?.payloadHash, action: 'approve' };
      await expect(decide(engine, { runId: run.id, body: { ...body, reviewId: engine.newId() }, actor: reviewer })).rejects.toMatchObject({ code: 'REVIEW_STALE' });
      await expect(decide(engine, { runId: run.id, body: { ...body, payloadHash: 'f'.repeat(64) }, actor: reviewer })).rejects.toMatchObject({ code: 'PAYLOAD_HASH_MISMATCH' });
      const results = await Promise.allSettled([approve(run), approve(run, { id: 'person:grace', canOverride: false })]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: expect.objectContaining({ code: 'DECISION_CONFLICT' }) });
      await harness.settle(run.id, ['completed']);
      expect(await engine.store.decisions(run.id)).toHaveLength(1);
      // A decision arriving after the winner's has moved the run on is the same conflict, naming who won.
      await expect(approve(run, { id: 'person:grace', canOverride: false })).rejects.toMatchObject({ code: 'DECISION_CONFLICT', message: expect.stringContaining('approve by person:') });
    });

    it('a quorum needs distinct people', async () => {
      const run = await parked({ prompt: 'a paper crane', policy: { mode: 'require_human', quorum: 2 } });
      expect((await approve(run)).plan.route).toBe('await_quorum');
      const waiting = (await engine.store.get(run.id))!;
      expect(waiting.pendingReview?.approvals).toEqual(['person:ada']);
      await expect(approve(waiting)).rejects.toMatchObject({ code: 'DECISION_CONFLICT' });
      expect((await approve(waiting, { id: 'person:grace', canOverride: false })).plan.route).toBe('execute');
      await harness.settle(run.id, ['completed']);
    });

    it('nothing to build from parks before building; the fields a person sets are built', async () => {
      const run = await parked({ prompt: '   ' });
      expect(run).toMatchObject({ candidate: null, pendingReview: { reason: 'nothing_to_build_from', checkpoint: 'information_review' } });
      const { plan } = await decide(engine, { runId: run.id, body: { reviewId: run.pendingReviewId, action: 'edit', edits: { prompt: 'a red fox' } }, actor: reviewer });
      expect(plan.route).toBe('build');
      const done = await harness.settle(run.id, ['completed']);
      expect(done.candidate?.payload).toMatchObject({ prompt: 'a red fox' });
    });

    it('a builder that gives up asks a person; retry builds again', async () => {
      const run = await parked({ prompt: `a fox ${GIVES_UP}` });
      expect(run.pendingReview).toMatchObject({ reason: 'builder_failed', checkpoint: 'error_recovery' });
      expect((await decide(engine, { runId: run.id, body: { reviewId: run.pendingReviewId, action: 'retry' }, actor: reviewer })).plan.route).toBe('build');
      const again = await harness.settle(run.id, ['awaiting_human']);
      expect(again.pendingReviewId).not.toBe(run.pendingReviewId);
      expect(again.pendingReview?.reason).toBe('builder_failed');
    });

    it('bad input found by a stage fails the run naming the field', async () => {
      const run = await harness.settle((await submit({ prompt: 'a fox', edits: { widht: 512 } })).id, ['failed']);
      expect(run.error).toMatchObject({ code: 'INVALID_REQUEST', field: 'edits.widht', stage: 'build' });
    });

    it('pause and resume a parked run: the same review waits again, and is decided', async () => {
      const run = await parked({ prompt: 'a paper crane', policy: 'require_human' });
      expect((await pauseRun(engine, { runId: run.id, actor: 'operator' })).status).toBe('paused');
      await expect(approve(run)).rejects.toMatchObject({ code: 'RUN_STATE_CONFLICT' });
      const resumed = await resumeRun(engine, { runId: run.id, actor: 'operator' });
      expect(resumed).toMatchObject({ status: 'awaiting_human', pendingReviewId: run.pendingReviewId });
      await approve(resumed);
      await harness.settle(run.id, ['completed']);
    });

    it('cancel ends a parked run; a review nobody decides in time expires', async () => {
      const cancelled = await parked({ prompt: 'a paper crane', policy: 'require_human' });
      expect((await cancelRun(engine, { runId: cancelled.id, actor: 'operator', reason: 'changed my mind' })).error).toMatchObject({ code: 'CANCELLED' });
      const run = await parked({ prompt: 'a paper crane', policy: { mode: 'require_human', reviewTtlSeconds: 30 } });
      expect(await expireDueReviews(engine, new Date(run.reviewExpiresAt!.getTime() - 1000))).toBe(0);
      expect(await expireDueReviews(engine, run.reviewExpiresAt!)).toBe(1);
      expect(await engine.store.get(run.id)).toMatchObject({ status: 'expired', error: { code: 'REVIEW_EXPIRED' }, pendingReviewId: null });
    });

    it("a model schema that changed while the run waited is checked again, and a person asked again", async () => {
      const run = await parked({ prompt: 'a paper crane', policy: 'require_human' });
      const source = fluxSource() as { latest_version: { id: string; openapi_schema: { components: { schemas: { Input: { properties: Record<string, unknown> } } } } } };
      source.latest_version.id = `v-${engine.newId()}`;
      source.latest_version.openapi_schema.components.schemas.Input.properties.style = { type: 'string', title: 'Style', default: 'none', 'x-order': 20 };
      await registerModel(engine, { tenantId: SCENARIO_TENANT, source });
      expect((await approve(run)).plan.route).toBe('validate');
      const again = await harness.settle(run.id, ['awaiting_human']);
      expect(again).toMatchObject({ recheck: null, pendingReview: { reason: 'schema_changed' } });
      expect(again.schemaKey).not.toBe(run.schemaKey);
      expect(await engine.store.ledger.listForRun(run.id)).toEqual([]);
      await approve(again);
      await harness.settle(run.id, ['completed']);
      // Put the catalog back for the scenarios after this one.
      await registerModel(engine, { tenantId: SCENARIO_TENANT, source: fluxSource() });
    });
  });
}
