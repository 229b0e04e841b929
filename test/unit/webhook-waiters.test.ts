/** Webhook wake-ups for a waiting Replicate execution (src/adapters/webhook-waiters.ts), on fake timers. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createWebhookWaiters } from '../../src/adapters/webhook-waiters.ts';

const HOUR = 3_600_000;

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('webhook waiters', () => {
  it('a webhook wakes the sleeper of its prediction, and only that one', async () => {
    const waiters = createWebhookWaiters();
    const woken = waiters.sleep('p1', HOUR);
    const other = waiters.sleep('p2', 1000);
    expect(waiters.deliver({ id: 'p1', status: 'succeeded' })).toEqual({ status: 'woken', predictionId: 'p1', waiters: 1 });
    await expect(woken).resolves.toBe('webhook');
    await vi.advanceTimersByTimeAsync(1000);
    await expect(other).resolves.toBe('timer');
  });

  it('a webhook that lands between a poll and the sleep is not lost: the next sleep on it ends at once, once', async () => {
    const waiters = createWebhookWaiters();
    expect(waiters.deliver({ id: 'p1', status: 'succeeded' })).toEqual({ status: 'not_waiting', predictionId: 'p1' });
    await expect(waiters.sleep('p1', HOUR)).resolves.toBe('webhook');
    // Used up: the sleep after it waits for its timer again.
    const second = waiters.sleep('p1', 500);
    await vi.advanceTimersByTimeAsync(500);
    await expect(second).resolves.toBe('timer');
  });

  it('an early webhook is forgotten after a minute (a prediction another process waits on costs nothing here)', async () => {
    const waiters = createWebhookWaiters();
    waiters.deliver({ id: 'p1', status: 'succeeded' });
    await vi.advanceTimersByTimeAsync(61_000);
    const late = waiters.sleep('p1', 500);
    await vi.advanceTimersByTimeAsync(500);
    await expect(late).resolves.toBe('timer');
  });

  it('a body without a prediction id is ignored', () => {
    expect(createWebhookWaiters().deliver({ status: 'succeeded' })).toMatchObject({ status: 'ignored' });
  });
});
