/**
 * A provider that keeps answering "too many requests" (429) created nothing: the execute stage tries again with
 * its backoff, and when every attempt was refused it asks a person as `provider_throttled` (nothing ran, try again
 * later), never as `execution_uncertain` (maybe it ran). An answer that proves nothing keeps asking the latter.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createAdapterRegistry } from '../../src/adapters/registry.ts';
import { registerModel } from '../../src/catalog/model-catalog.ts';
import { loadConfig } from '../../src/config.ts';
import { createInProcessEngine, type InProcessEngine } from '../../src/engine/in-process.ts';
import { runToRest } from '../../src/engine/in-process-runner.ts';
import { stageNamed } from '../../src/engine/stages.ts';
import { VettedError } from '../../src/errors.ts';
import type { ExecutionResult } from '../../src/generated/contracts.ts';
import { submitRun } from '../../src/intake/submit-run.ts';
import type { ModelProvider } from '../../src/ports.ts';
import { decide } from '../../src/review/decide-on-run.ts';
import { buildQuestion } from '../../src/review-model/question/build-question.ts';
import { MESSAGES } from '../../src/review-model/question/messages.ts';
import { ProviderThrottledError } from '../../src/stages/executor.ts';

/** A provider that fails its first `failing` calls with `failure()`, then succeeds; counts its calls. */
function failingProvider(failing: number, failure: () => Error) {
  const calls = { count: 0 };
  const provider: ModelProvider = {
    name: 'dry',
    sideEffectFree: false,
    async execute(request): Promise<ExecutionResult> {
      calls.count += 1;
      if (calls.count <= failing) throw failure();
      return { provider: 'dry', predictionId: `p-${request.step}`, status: 'succeeded', output: ['https://files.example.com/out.png'] };
    },
  };
  return { provider, calls };
}

async function executedRun(provider: ModelProvider): Promise<{ engine: InProcessEngine; runId: string }> {
  const config = loadConfig({});
  const engine = createInProcessEngine({ config, adapters: createAdapterRegistry(config, { providers: { dry: provider } }) });
  const source = JSON.parse(readFileSync('examples/models/flux-schnell.model.json', 'utf8')) as Record<string, unknown>;
  await registerModel(engine, { tenantId: 'acme', source });
  const { run } = await submitRun(engine, { tenantId: 'acme', actor: 'test', request: { model: 'black-forest-labs/flux-schnell', prompt: 'a heron' } });
  await runToRest(engine, run.id);
  return { engine, runId: run.id };
}

const ATTEMPTS = stageNamed('execute').queue.attempts;
const reviewer = { id: 'person:ada', canOverride: false };
const throttled = () => new ProviderThrottledError('the provider rate-limited the prediction (429); it will be tried again');

describe('a provider that keeps answering 429', () => {
  it('is tried on every attempt of the stage, then asks a person as provider_throttled: nothing ran', async () => {
    const { provider, calls } = failingProvider(ATTEMPTS, throttled);
    const { engine, runId } = await executedRun(provider);
    const run = (await engine.store.get(runId))!;
    expect(calls.count).toBe(ATTEMPTS);
    expect(run.status).toBe('awaiting_human');
    expect(run.pendingReview).toMatchObject({ reason: 'provider_throttled', checkpoint: 'error_recovery', kind: 'error_recovery' });
    expect(run.pendingReview?.question).toBe(MESSAGES.en.providerBusy);
    // The steps were released: no execution is left behind as started.
    expect(await engine.store.ledger.listForRun(runId)).toEqual([]);
  });

  it('an approval runs the same payload again, and it completes once the provider takes it', async () => {
    const { provider, calls } = failingProvider(ATTEMPTS, throttled);
    const { engine, runId } = await executedRun(provider);
    const parked = (await engine.store.get(runId))!;
    const { plan } = await decide(engine, { runId, body: { reviewId: parked.pendingReviewId, action: 'approve' }, actor: reviewer });
    expect(plan).toEqual({ route: 'execute', override: false, newExecutionStep: true });
    const done = await runToRest(engine, runId);
    expect(done).toMatchObject({ status: 'completed', result: { status: 'succeeded' } });
    expect(calls.count).toBe(ATTEMPTS + 1);
  });

  it('asks the person the request came from whether to try again, in their language', () => {
    const why = { reason: 'provider_throttled', kind: 'error_recovery', checkpoint: 'error_recovery', question: 'q' } as const;
    expect(buildQuestion({ why, issues: [], candidate: null, locale: 'es' })).toMatchObject({ question: MESSAGES.es.providerBusy, expectedInput: 'yes_no', returnTo: { action: 'approve', route: 'execute' } });
  });
});

describe('a provider answer that proves nothing', () => {
  it('still asks as execution_uncertain: the step stays started, and the run may have run', async () => {
    const { provider, calls } = failingProvider(ATTEMPTS, () => new VettedError('PROVIDER_UNAVAILABLE', 'the provider failed while creating the prediction (HTTP 502); it may or may not exist'));
    const { engine, runId } = await executedRun(provider);
    const run = (await engine.store.get(runId))!;
    expect(run.pendingReview).toMatchObject({ reason: 'execution_uncertain', checkpoint: 'error_recovery' });
    expect(calls.count).toBe(1);
  });
});
