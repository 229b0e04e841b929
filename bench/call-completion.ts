/**
 * Completion detection for a system that answers a call instead of writing queue events (a peer running in
 * a worker process, bench/peers): the request ends when its call's answer is read in the driver. The IPC
 * answer is pushed like a queue event (no polling), so both kinds of system are timed the same way: from
 * just before submit to the moment the driver learns the request finished.
 */
import type { CompletionTracker } from './completion.ts';

export interface CallTracker extends CompletionTracker {
  /** Ties a request id to the call doing its work; wait(requestId) resolves when that call answers. */
  track(requestId: string, done: Promise<unknown>): void;
}

export function createCallTracker(): CallTracker {
  const waiters = new Map<string, { resolve: (at: number) => void; reject: (error: Error) => void }>();
  // An answer read before its wait() (a call can answer before submit returns to the lane).
  const early = new Map<string, { at: number } | { error: Error }>();
  const settle = (requestId: string, outcome: { at: number } | { error: Error }) => {
    const waiter = waiters.get(requestId);
    if (!waiter) {
      early.set(requestId, outcome);
      return;
    }
    waiters.delete(requestId);
    if ('at' in outcome) waiter.resolve(outcome.at);
    else waiter.reject(outcome.error);
  };
  return {
    track(requestId, done) {
      done.then(
        () => settle(requestId, { at: performance.now() }),
        (error: unknown) => settle(requestId, { error: error instanceof Error ? error : new Error(String(error)) }),
      );
    },
    wait(requestId) {
      const known = early.get(requestId);
      if (known) {
        early.delete(requestId);
        return 'at' in known ? Promise.resolve(known.at) : Promise.reject(known.error);
      }
      return new Promise((resolve, reject) => waiters.set(requestId, { resolve, reject }));
    },
    failAll(error) {
      for (const waiter of waiters.values()) waiter.reject(error);
      waiters.clear();
    },
    pending: () => [...waiters.keys()],
    async close() {
      waiters.clear();
      early.clear();
    },
  };
}
