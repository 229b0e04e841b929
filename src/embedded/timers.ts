/**
 * Timers by key for the embedded runner (runner.ts): what BullMQ's delayed jobs are across processes, in one.
 * A key is armed once (a second `at` for it is a no-op, as a job id is), a timer further away than setTimeout
 * can wait is re-armed in steps, and no timer keeps the process alive (`vetted demo` ends when its story does).
 */

/** setTimeout's limit (about 24.8 days): a later time is waited for in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface KeyedTimers {
  /** Calls `fire` at `when` (ms since the epoch, by `now`) unless `key` is already armed. */
  at(key: string, when: number, fire: () => void): void;
  has(key: string): boolean;
  /** Drops the timer of `key`, if armed (it never fires). */
  cancel(key: string): void;
  /** Drops every timer (they never fire). */
  clear(): void;
}

export function createKeyedTimers(now: () => number): KeyedTimers {
  const timers = new Map<string, NodeJS.Timeout>();
  const arm = (key: string, when: number, fire: () => void) => {
    const wait = when - now();
    const timer = setTimeout(() => {
      timers.delete(key);
      if (wait > MAX_TIMER_MS) return arm(key, when, fire);
      fire();
    }, Math.max(0, Math.min(wait, MAX_TIMER_MS)));
    timer.unref();
    timers.set(key, timer);
  };
  return {
    at(key, when, fire) {
      if (!timers.has(key)) arm(key, when, fire);
    },
    has: (key) => timers.has(key),
    cancel(key) {
      clearTimeout(timers.get(key));
      timers.delete(key);
    },
    clear() {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}
