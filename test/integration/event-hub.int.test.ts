/**
 * The event hub on real PostgreSQL: a subscriber is woken soon after its run gets an event (well before the
 * fallback poll could have done it), only its own run wakes it, and unsubscribing stops the wakes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventHub, EVENT_POLL_MS, FALLBACK_POLL_MS, type EventHub } from '../../src/db/event-hub.ts';
import { registerExamples, submit } from '../support/pipeline.ts';
import { createTestSystem, type TestSystem } from '../support/test-system.ts';

let system: TestSystem;
let hub: EventHub;

beforeAll(async () => {
  system = await createTestSystem();
  await registerExamples(system);
  hub = createEventHub(system.config.databaseUrl, system.logger);
});

afterAll(async () => {
  await hub?.close();
  await system?.dispose();
});

const request = { model: 'black-forest-labs/flux-schnell', prompt: 'a heron at dusk' };

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
    expect(await nextWake(wakes, 0, FALLBACK_POLL_MS / 2)).toBeDefined();
    expect(await nextWake(otherWakes, 0, FALLBACK_POLL_MS / 2)).toBeDefined();

    const before = Date.now();
    await system.store.appendEvent(watched, { type: 'run.requeued', actor: 'test', data: {} });
    const woke = await nextWake(wakes, before, FALLBACK_POLL_MS / 2);
    expect(woke).toBeDefined();
    // Far sooner than the fallback poll: the hub noticed the event (a generous bound, not a benchmark).
    expect((woke as number) - before).toBeLessThan(FALLBACK_POLL_MS / 2);
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
