/**
 * The event hub on real PostgreSQL: a subscriber is woken after its run gets an event by the hub's own poll
 * (the subscribers' fallback poll is set longer than the test), only its own run wakes it, and unsubscribing
 * stops the wakes; the running transactions it reports are this database's only.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventHub, EVENT_POLL_MS, type EventHub } from '../../src/db/event-hub.ts';
import { ADMIN_URL } from '../support/databases.ts';
import { registerExamples, submit } from '../support/pipeline.ts';
import { createTestSystem, type TestSystem } from '../support/test-system.ts';

let system: TestSystem;
let hub: EventHub;

beforeAll(async () => {
  system = await createTestSystem();
  await registerExamples(system);
  hub = createEventHub(system.config.databaseUrl, system.logger, { fallbackPollMs: NEVER_MS });
});

afterAll(async () => {
  await hub?.close();
  await system?.dispose();
});

const request = { model: 'black-forest-labs/flux-schnell', prompt: 'a heron at dusk' };
/** Longer than the test can run: a wake within it is the hub's. */
const NEVER_MS = 3_600_000;
/** How long to wait for a wake before calling it missing (a failure bound, not a speed target). */
const WAIT_MS = 20_000;

/** Resolves with the time of the first wake after `since`, or undefined after `withinMs`. */
function nextWake(wakes: number[], since: number, withinMs: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const started = Date.now();
    const check = setInterval(() => {
      const wake = wakes.find((at) => at > since);
      if (wake !== undefined || Date.now() - started > withinMs) {
        clearInterval(check);
        resolve(wake);
      }
    }, 10);
  });
}

describe('event hub', () => {
  it('wakes the subscribers of a run that got a new event, and nobody else', async () => {
    const [watched, other] = [await submit(system, request), await submit(system, request)];
    const wakes: number[] = [];
    const otherWakes: number[] = [];
    const unsubscribe = hub.subscribe(watched.id, () => wakes.push(Date.now()));
    const unsubscribeOther = hub.subscribe(other.id, () => otherWakes.push(Date.now()));
    // The first poll wakes every new subscriber once (its run has events already); wait for both.
    expect(await nextWake(wakes, 0, WAIT_MS)).toBeDefined();
    expect(await nextWake(otherWakes, 0, WAIT_MS)).toBeDefined();

    const before = Date.now();
    await system.store.appendEvent(watched, { type: 'run.requeued', actor: 'test', data: {} });
    expect(await nextWake(wakes, before, WAIT_MS)).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, EVENT_POLL_MS * 3));
    expect(otherWakes.filter((at) => at > before)).toEqual([]);

    unsubscribe();
    unsubscribeOther();
    const afterUnsubscribe = Date.now();
    await system.store.appendEvent(watched, { type: 'run.requeued', actor: 'test', data: {} });
    await new Promise((resolve) => setTimeout(resolve, EVENT_POLL_MS * 3));
    expect(wakes.filter((at) => at > afterUnsubscribe)).toEqual([]);
  });
});

describe('running transactions', () => {
  /** A client inside a writing transaction (one with an id), and that id. */
  async function openWritingTransaction(url: string): Promise<{ client: pg.Client; xid: bigint }> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('begin');
    const { rows } = await client.query<{ xid: string }>('select pg_current_xact_id()::text as xid');
    return { client, xid: BigInt(rows[0]!.xid) };
  }

  it("lists this database's writing transactions and not another database's, which cannot hold one of its event ids", async () => {
    const elsewhere = await openWritingTransaction(ADMIN_URL);
    const here = await openWritingTransaction(system.config.databaseUrl);
    try {
      const snapshot = await hub.transactions();
      expect(snapshot.running).toContain(here.xid);
      expect(snapshot.running).not.toContain(elsewhere.xid);
      expect(snapshot.xmin).toBeLessThanOrEqual(elsewhere.xid);
    } finally {
      for (const { client } of [elsewhere, here]) {
        await client.query('rollback');
        await client.end();
      }
    }
    expect(await hub.transactions()).toMatchObject({ running: expect.not.arrayContaining([here.xid]) });
  });
});
