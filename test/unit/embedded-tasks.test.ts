/** The embedded runner's task pool (src/embedded/tasks.ts): retries with backoff, gives up, bounds concurrency, closes. */
import { describe, expect, it } from 'vitest';
import { createTaskPool } from '../../src/embedded/tasks.ts';
import { createLogger } from '../../src/observability/logger.ts';
import { createRedactor } from '../../src/observability/redact.ts';

const logger = createLogger({ level: 'silent', redact: createRedactor() });
const quick = { name: 'test', attempts: 3, backoffMs: 1 };

function settledOf(pool: ReturnType<typeof createTaskPool>, work: (made: number) => Promise<unknown>, options = quick): Promise<void> {
  return new Promise((resolve) => pool.add(options, work, resolve));
}

describe('the embedded task pool', () => {
  it('tries a failing task again until it succeeds, telling it how many tries failed', async () => {
    const pool = createTaskPool(logger, 2);
    const tries: number[] = [];
    await settledOf(pool, async (made) => {
      tries.push(made);
      if (made < 2) throw new Error('transient');
    });
    expect(tries).toEqual([0, 1, 2]);
  });

  it('gives up after its attempts, and at once on an UnrecoverableError', async () => {
    const pool = createTaskPool(logger, 2);
    let failing = 0;
    await settledOf(pool, async () => {
      failing++;
      throw new Error('always');
    });
    expect(failing).toBe(3);
    let unrecoverable = 0;
    await settledOf(pool, async () => {
      unrecoverable++;
      throw Object.assign(new Error('no secret'), { name: 'UnrecoverableError' });
    });
    expect(unrecoverable).toBe(1);
  });

  it('runs at most `concurrency` tasks at once; the rest wait their turn, oldest first', async () => {
    const pool = createTaskPool(logger, 2);
    let active = 0;
    let peak = 0;
    const order: number[] = [];
    await Promise.all(
      [1, 2, 3, 4, 5].map((n) =>
        settledOf(pool, async () => {
          active++;
          peak = Math.max(peak, active);
          order.push(n);
          await new Promise((resolve) => setTimeout(resolve, 5));
          active--;
        }),
      ),
    );
    expect(peak).toBe(2);
    expect(order).toEqual([1, 2, 3, 4, 5]);
  });

  it('close cuts a backoff short, drops waiting tasks, and takes no more', async () => {
    const pool = createTaskPool(logger, 1);
    let tries = 0;
    const first = settledOf(pool, async () => {
      tries++;
      throw new Error('down');
    }, { name: 'slow', attempts: 5, backoffMs: 3_600_000 });
    let ranWaiting = false;
    pool.add(quick, async () => {
      ranWaiting = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await pool.close();
    await first;
    expect(tries).toBe(1);
    expect(ranWaiting).toBe(false);
    let settledAfterClose = false;
    pool.add(quick, async () => undefined, () => (settledAfterClose = true));
    expect(settledAfterClose).toBe(true);
  });
});
