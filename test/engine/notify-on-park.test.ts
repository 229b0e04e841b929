/**
 * The engine asks for notifications where reviews start and end (commit.ts), and never waits on them: a
 * dispatch that cannot queue a notification still parks and expires the run.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createAdapterRegistry } from '../../src/adapters/registry.ts';
import { registerModel } from '../../src/catalog/model-catalog.ts';
import { loadConfig } from '../../src/config.ts';
import { expireDueReviews } from '../../src/engine/expiry.ts';
import { createInProcessEngine, type InProcessEngine } from '../../src/engine/in-process.ts';
import { runToRest } from '../../src/engine/in-process-runner.ts';
import { submitRun } from '../../src/intake/submit-run.ts';

function inProcessEngine(): InProcessEngine {
  const config = loadConfig({});
  return createInProcessEngine({ config, adapters: createAdapterRegistry(config) });
}

async function parkedRun(engine: InProcessEngine) {
  const source = JSON.parse(readFileSync('examples/models/flux-schnell.model.json', 'utf8')) as Record<string, unknown>;
  await registerModel(engine, { tenantId: 'acme', source });
  const { run } = await submitRun(engine, { tenantId: 'acme', actor: 'test', request: { model: 'black-forest-labs/flux-schnell', prompt: 'a heron', policy: 'require_human' } });
  return runToRest(engine, run.id);
}

describe('notifications from the engine', () => {
  it('a parked run asks for a "waiting" notification, an expired one for "expired"', async () => {
    const engine = inProcessEngine();
    const run = await parkedRun(engine);
    expect(run.status).toBe('awaiting_human');
    const reviewId = run.pendingReview!.reviewId;
    expect(engine.dispatch.notifications).toEqual([{ tenantId: 'acme', subject: 'review', subjectId: reviewId, runId: run.id, event: 'waiting' }]);
    expect(await expireDueReviews(engine, new Date(Date.now() + 365 * 24 * 3600 * 1000))).toBe(1);
    expect(engine.dispatch.notifications.map((job) => job.event)).toEqual(['waiting', 'expired']);
  });

  it('a notification that cannot be queued holds nothing up', async () => {
    const engine = inProcessEngine();
    let asked = 0;
    engine.dispatch.enqueueNotification = async () => {
      asked++;
      throw new Error('Redis is away');
    };
    const run = await parkedRun(engine);
    expect(run.status).toBe('awaiting_human');
    expect(await expireDueReviews(engine, new Date(Date.now() + 365 * 24 * 3600 * 1000))).toBe(1);
    expect((await engine.store.get(run.id))?.status).toBe('expired');
    expect(asked).toBe(2);
  });
});
