/** The reconciler on real Redis and PostgreSQL: work lost from Redis comes back, exactly once. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expiryBucket, expiryJobId } from '../../src/queue/queues.ts';
import { reconcile, type CarriedWork } from '../../src/engine/reconciler.ts';
import { startWorkers, type RunningWorkers } from '../../workers/start-workers.ts';
import { registerExamples, settle, submit } from '../support/pipeline.ts';
import { createTestSystem, deleteRedisPrefix, type TestSystem } from '../support/test-system.ts';

let system: TestSystem;
let workers: RunningWorkers | undefined;

beforeEach(async () => {
  system = await createTestSystem();
  await registerExamples(system);
});

afterEach(async () => {
  await workers?.close();
  workers = undefined;
  await system.dispose();
});

const request = { model: 'black-forest-labs/flux-schnell', prompt: 'a sailing boat' };

describe('reconcile', () => {
  it('leaves runs whose job is still in Redis alone', async () => {
    const run = await submit(system, request);
    expect(await reconcile(system, system.queues, { graceMs: 0 })).toMatchObject({ requeued: 0 });
    expect((await system.store.get(run.id))?.attempt).toBe(0);
  });

  it('after Redis lost its data, requeues every in-flight run once, even with two reconcilers at the same time', async () => {
    const runs = await Promise.all(Array.from({ length: 5 }, () => submit(system, request)));
    await deleteRedisPrefix(system.config.queuePrefix);
    const [a, b] = await Promise.all([reconcile(system, system.queues, { graceMs: 0 }), reconcile(system, system.queues, { graceMs: 0 })]);
    expect(a.requeued + b.requeued).toBe(5);

    workers = startWorkers(system);
    for (const run of runs) {
      const done = await settle(system, run.id, ['completed']);
      const types = (await system.store.events(run.id)).map((e) => e.type);
      expect(types.filter((t) => t === 'run.requeued')).toHaveLength(1);
      expect(done.status).toBe('completed');
      expect(await system.store.ledger.listForRun(run.id)).toHaveLength(1);
    }
    expect(system.logs.filter((l) => l.event === 'RUN_REQUEUED')).toHaveLength(5);
  });

  it('requeues the runs of one pass several at a time, each once', async () => {
    const runs = await Promise.all(Array.from({ length: 6 }, () => submit(system, request)));
    await deleteRedisPrefix(system.config.queuePrefix);
    let checking = 0;
    let most = 0;
    const work: CarriedWork = {
      async lostStageJob(job) {
        checking += 1;
        most = Math.max(most, checking);
        // Let the other lanes reach their check before this one answers.
        await new Promise((resolve) => setImmediate(resolve));
        try {
          return await system.queues.lostStageJob(job);
        } finally {
          checking -= 1;
        }
      },
      restoreExpiry: (expiresAt) => system.queues.restoreExpiry(expiresAt),
      restoreSlaStep: (job) => system.queues.restoreSlaStep(job),
    };
    expect(await reconcile(system, work, { graceMs: 0 })).toMatchObject({ requeued: 6 });
    expect(most).toBeGreaterThan(1);
    for (const run of runs) expect((await system.store.events(run.id)).filter((e) => e.type === 'run.requeued')).toHaveLength(1);
  });

  it("restores a parked run's expiry job, so the review still expires", async () => {
    workers = startWorkers(system);
    const parked = await settle(system, (await submit(system, { ...request, policy: { mode: 'require_human', reviewTtlSeconds: 2 } })).id, ['awaiting_human']);
    await workers.close();
    await deleteRedisPrefix(system.config.queuePrefix);
    const bucketJob = expiryJobId(expiryBucket(parked.reviewExpiresAt!));
    expect(await system.queues.expiry.getJobState(bucketJob)).toBe('unknown');

    expect(await reconcile(system, system.queues, { graceMs: 0 })).toMatchObject({ expiriesRestored: 1, requeued: 0 });
    workers = startWorkers(system);
    expect((await settle(system, parked.id, ['expired'], 15_000)).error?.code).toBe('REVIEW_EXPIRED');
  });

  it('runs on a schedule inside the workers', async () => {
    await system.dispose();
    system = await createTestSystem({ VETTED_RECONCILE_INTERVAL_MS: '1000', VETTED_RECONCILE_GRACE_MS: '0' });
    await registerExamples(system);
    const run = await submit(system, request);
    await deleteRedisPrefix(system.config.queuePrefix);
    workers = startWorkers(system);
    expect((await settle(system, run.id, ['completed'], 20_000)).status).toBe('completed');
  });
});
