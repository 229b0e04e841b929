/**
 * Vetted on a Redis Cluster: three redis-server nodes on loopback (scripts/redis-cluster.sh, random free ports,
 * stopped after, and by a watchdog if this process dies first), REDIS_URL in its cluster form. Runs go through
 * the API, the five stage queues and a review round trip (park → decide → executed), and every queue's keys sit
 * in one slot of their own, the queues spread over the nodes.
 */
import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Queue } from 'bullmq';
import type { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAGE_NAMES } from '../../src/engine/stages.ts';
import { expiryBucket, expiryJobId } from '../../src/queue/queues.ts';
import { createApiHarness, json, type ApiHarness } from '../support/api.ts';
import { jobsInRedis, settle } from '../support/pipeline.ts';

const run = promisify(execFile);
const SCRIPT = new URL('../../scripts/redis-cluster.sh', import.meta.url).pathname;

let dir: string | undefined;
let redisUrl: string;
let api: ApiHarness;

beforeAll(async () => {
  dir = join(await mkdtemp(join(tmpdir(), 'vetted-redis-cluster-')), 'nodes');
  redisUrl = (await run('bash', [SCRIPT, 'start', dir, String(process.pid)], { timeout: 90_000 })).stdout.trim();
  api = await createApiHarness({ REDIS_URL: redisUrl });
});

afterAll(async () => {
  try {
    await api?.close();
  } finally {
    if (dir) await run('bash', [SCRIPT, 'stop', dir], { timeout: 30_000 });
  }
});

const cluster = () => api.system.queues.connection as Cluster;
const allQueues = (): Queue[] => {
  const { stages, expiry, webhooks, maintenance, shadow, notifications } = api.system.queues;
  return [...Object.values(stages), expiry, webhooks, maintenance, shadow, notifications];
};

async function submit(body: Record<string, unknown>): Promise<string> {
  const response = await api.call('POST', '/api/runs', { key: api.keys.submitter, body });
  expect(response.statusCode, response.body).toBe(202);
  return json<{ id: string }>(response).id;
}

describe('REDIS_URL in its cluster form', () => {
  it('is read as the seed nodes of a cluster, and the queue names are hash tags', () => {
    expect(redisUrl).toMatch(/^redis\+cluster:\/\/127\.0\.0\.1:\d+,127\.0\.0\.1:\d+,127\.0\.0\.1:\d+$/);
    expect(api.system.config.redis).toMatchObject({ mode: 'cluster', tls: false });
    expect(api.system.config.redis.mode === 'cluster' && api.system.config.redis.nodes).toHaveLength(3);
    expect(cluster().isCluster).toBe(true);
    expect(Object.fromEntries(STAGE_NAMES.map((stage) => [stage, api.system.queues.stages[stage].name]))).toEqual({
      extract: '{vetted-extract}', assemble: '{vetted-assemble}', build: '{vetted-build}', validate: '{vetted-validate}', execute: '{vetted-execute}',
    });
    expect(api.system.queues.expiry.name).toBe('{vetted-expiry}');
  });
});

describe('the pipeline on a cluster', () => {
  it('runs a request through the five stage queues to an execution, leaving no job behind', async () => {
    const id = await submit({ model: 'black-forest-labs/flux-schnell', prompt: 'a lighthouse at dawn, seed=77' });
    const done = await settle(api.system, id, ['completed', 'failed', 'cancelled', 'awaiting_human'], 60_000);
    expect(done.status).toBe('completed');
    expect((done.result?.output as { input: Record<string, unknown> }).input).toMatchObject({ seed: 77 });
    const events = await api.system.store.events(id);
    expect(events.map((event) => event.type)).toEqual(['run.created', 'stage.completed', 'stage.completed', 'stage.completed', 'stage.completed', 'run.completed']);
    expect(await api.system.store.ledger.listForRun(id)).toHaveLength(1);
    expect(await jobsInRedis(api.system, id)).toBe(0);
  });

  it('parks a run for review, takes the decision over HTTP, and executes the edited payload', async () => {
    const id = await submit({ model: 'nightmareai/real-esrgan', prompt: 'sharpen it' });
    const parked = await settle(api.system, id, ['awaiting_human', 'completed', 'failed'], 60_000);
    expect(parked.status).toBe('awaiting_human');
    const review = parked.pendingReview!;
    expect(review).toMatchObject({ checkpoint: 'payload_review', reason: 'validation_failed' });
    // The review's expiry is a delayed job in the expiry queue, on whichever node holds that queue's slot.
    expect(await api.system.queues.expiry.getJobState(expiryJobId(expiryBucket(new Date(review.expiresAt))))).toBe('delayed');

    const decision = await api.call('POST', `/api/runs/${id}/decision`, {
      key: api.keys.reviewer,
      body: { reviewId: review.reviewId, payloadHash: review.payloadHash, action: 'edit', edits: { image: 'https://cdn.test/me.jpg' } },
    });
    expect(decision.statusCode, decision.body).toBe(200);
    const done = await settle(api.system, id, ['completed', 'failed', 'cancelled'], 60_000);
    expect(done.status).toBe('completed');
    expect((done.result?.output as { input: Record<string, unknown> }).input.image).toBe('https://cdn.test/me.jpg');
    expect(await api.system.store.decisions(id)).toEqual([expect.objectContaining({ action: 'edit', reviewId: review.reviewId })]);
    expect(await jobsInRedis(api.system, id)).toBe(0);
  });
});

describe('where the keys live', () => {
  it('every queue in one slot of its own, and the queues spread over the nodes', async () => {
    const slotOf = async (key: string) => Number(await cluster().cluster('KEYSLOT', key));
    const prefix = api.system.queues.prefix;
    const slots = new Map<string, number>();
    for (const queue of allQueues()) {
      // Each key BullMQ uses for the queue (wait, active, delayed, meta, events, ...), and a job's.
      const keys = [...Object.values(queue.keys), `${prefix}:${queue.name}:some-job-id`, `${prefix}:${queue.name}:some-job-id:lock`];
      const queueSlots = new Set(await Promise.all(keys.map(slotOf)));
      expect(queueSlots.size, queue.name).toBe(1);
      slots.set(queue.name, [...queueSlots][0] as number);
    }
    expect(new Set(slots.values()).size).toBe(allQueues().length);

    // Which node holds each queue: the master serving its slot (CLUSTER SLOTS); for the queues the runs above
    // used, that node has keys in the slot and no other node has any (this cluster is this file's alone).
    const ranges = await cluster().cluster('SLOTS');
    const ownerOf = (slot: number) => ranges.filter(([from, to]) => slot >= from && slot <= to).map(([, , master]) => `${master?.[0]}:${master?.[1]}`)[0];
    const owners = new Map([...slots].map(([name, slot]) => [name, ownerOf(slot)]));
    const masters = cluster().nodes('master');
    expect(masters).toHaveLength(3);
    for (const queue of [...Object.values(api.system.queues.stages), api.system.queues.expiry]) {
      const holders: string[] = [];
      for (const node of masters) {
        if (Number(await node.call('CLUSTER', 'COUNTKEYSINSLOT', String(slots.get(queue.name)))) > 0) holders.push(`${node.options.host}:${node.options.port}`);
      }
      expect(holders, queue.name).toEqual([owners.get(queue.name)]);
    }
    const stageOwners = new Set(STAGE_NAMES.map((stage) => owners.get(api.system.queues.stages[stage].name)));
    expect(stageOwners.size).toBeGreaterThanOrEqual(2);
    expect(new Set(owners.values()).size).toBe(3);
  });
});
