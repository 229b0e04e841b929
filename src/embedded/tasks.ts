/**
 * Background work in one process, as BullMQ would do it across workers: each task runs detached, at most
 * `concurrency` at once (the rest wait their turn, oldest first), and a task that throws is tried again after
 * an exponential backoff while its attempts last. Used by the embedded runner (embedded-runner.ts).
 */
import type { Logger } from '../observability/logger.ts';

export interface TaskOptions {
  /** Names the task in logs (the queue BullMQ would have used). */
  name: string;
  attempts: number;
  /** The first retry's delay; each later one doubles it (BullMQ's exponential backoff). */
  backoffMs: number;
}

export interface TaskPool {
  /**
   * Runs `work` in the background; `work` gets how many tries already failed. `settled` is called once the
   * task is over (done, or failed for good; not for a task close() drops before it starts).
   */
  add(options: TaskOptions, work: (made: number) => Promise<unknown>, settled?: () => void): void;
  /** The tasks of one name now, as BullMQ's job counts would show its queue (the scrape gauges read them). */
  counts(name: string): TaskCounts;
  /** Stops starting tasks and waits for the running ones; tasks still waiting are dropped. */
  close(): Promise<void>;
}

export interface TaskCounts {
  /** Waiting for a free slot. */
  waiting: number;
  /** Running now. */
  active: number;
  /** Waiting out a retry's backoff. */
  delayed: number;
  /** When the oldest waiting task was added (ms since the epoch), if one waits. */
  oldestWaitingSince?: number;
}

/** Thrown by work that must not be tried again (BullMQ's UnrecoverableError has this name). */
const UNRECOVERABLE = 'UnrecoverableError';

export function createTaskPool(logger: Logger, concurrency: number, now: () => number = Date.now): TaskPool {
  const waiting: { name: string; since: number; start: () => Promise<void> }[] = [];
  /** Tasks running or in a backoff, by name. */
  const active = new Map<string, number>();
  const delayed = new Map<string, number>();
  const tally = (counts: Map<string, number>, name: string, by: number) => counts.set(name, (counts.get(name) ?? 0) + by);
  const running = new Set<Promise<void>>();
  /** Backoffs in progress, cut short by close(). */
  const sleepers = new Set<() => void>();
  let closed = false;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      sleepers.add(wake);
    });

  const pump = () => {
    while (!closed && running.size < concurrency && waiting.length > 0) {
      const next = waiting.shift() as (typeof waiting)[number];
      const task = next.start().finally(() => {
        running.delete(task);
        pump();
      });
      running.add(task);
    }
  };

  async function tryUntilDone(options: TaskOptions, work: (made: number) => Promise<unknown>): Promise<void> {
    for (let made = 0; !closed; made++) {
      let failure: { error: unknown } | undefined;
      tally(active, options.name, 1);
      try {
        await work(made);
      } catch (error) {
        failure = { error };
      } finally {
        tally(active, options.name, -1);
      }
      if (!failure) return;
      const final = made + 1 >= options.attempts || (failure.error as Error | undefined)?.name === UNRECOVERABLE;
      const fields = { err: failure.error, queue: options.name, attempt: made + 1, of: options.attempts };
      if (final) {
        logger.error(fields, 'embedded task failed for good');
        return;
      }
      logger.warn(fields, 'embedded task failed; trying again after a backoff');
      tally(delayed, options.name, 1);
      await sleep(options.backoffMs * 2 ** made);
      tally(delayed, options.name, -1);
    }
  }

  return {
    add(options, work, settled) {
      if (closed) return settled?.();
      waiting.push({ name: options.name, since: now(), start: () => tryUntilDone(options, work).finally(() => settled?.()) });
      pump();
    },
    counts(name) {
      const mine = waiting.filter((task) => task.name === name);
      return { waiting: mine.length, active: active.get(name) ?? 0, delayed: delayed.get(name) ?? 0, oldestWaitingSince: mine[0]?.since };
    },
    async close() {
      closed = true;
      waiting.length = 0;
      for (const wake of [...sleepers]) wake();
      await Promise.allSettled([...running]);
    },
  };
}
