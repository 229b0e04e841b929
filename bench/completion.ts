/**
 * How the driver learns that a request finished, the same way for Vetted and the baseline: BullMQ
 * QueueEvents on the LAST queue of the chain, event `completed`.
 *
 * Why this and not polling PostgreSQL: the event is pushed (a blocking XREAD on the queue's event
 * stream), so at one request in flight it adds well under a millisecond, where a poll would add half its
 * interval to every latency. Both systems' workers write that stream anyway (BullMQ emits the events
 * whether or not anyone listens), so listening costs one extra Redis connection and a little parsing in the
 * driver process, never in the workers. The event only says the last job finished; each load phase then
 * checks in PostgreSQL, once, that every request really reached its final state (LoadTarget.verify).
 *
 * Both systems name their jobs `<request id>.<rest>`, so the request id is the job id up to the first dot.
 *
 * The same tracker also serves the review phase, on other queues and events: `completed` on the validate
 * queue (the run is parked), and `active` on the execute queue (a worker took the execute job: the moment
 * execution starts, read the same pushed way).
 */
import { QueueEvents } from 'bullmq';
import { redisOptionsFromUrl } from '../src/queue/queues.ts';

/** The BullMQ job events a tracker can wait for: a job finished, or a worker took it. */
export type TrackedEvent = 'completed' | 'active';

export interface CompletionTracker {
  /** Resolves with performance.now() at the moment the event was read. */
  wait(requestId: string): Promise<number>;
  /** Rejects every pending wait (stall, Ctrl-C). */
  failAll(error: Error): void;
  /** Requests whose completion is awaited. */
  pending(): string[];
  close(): Promise<void>;
}

export async function createCompletionTracker(
  redisUrl: string,
  prefix: string,
  lastQueue: string,
  event: TrackedEvent = 'completed',
): Promise<CompletionTracker> {
  // From the start of the stream, not '$': the prefix is this phase's own and fresh, so the stream holds
  // only our events, and no completion can slip past between start-up and the first XREAD.
  const events = new QueueEvents(lastQueue, { connection: redisOptionsFromUrl(redisUrl), prefix, lastEventId: '0-0' });
  const waiters = new Map<string, { resolve: (at: number) => void; reject: (error: Error) => void }>();
  // A completion read before its wait() was registered (possible in principle: submit resolves on the
  // enqueue reply, the event arrives on another connection).
  const early = new Map<string, number>();

  events.on(event, ({ jobId }: { jobId: string }) => {
    const at = performance.now();
    const dot = jobId.indexOf('.');
    const requestId = dot === -1 ? jobId : jobId.slice(0, dot);
    const waiter = waiters.get(requestId);
    if (!waiter) {
      early.set(requestId, at);
      return;
    }
    waiters.delete(requestId);
    waiter.resolve(at);
  });
  events.on('error', () => undefined);
  await events.waitUntilReady();

  return {
    wait(requestId) {
      const at = early.get(requestId);
      if (at !== undefined) {
        early.delete(requestId);
        return Promise.resolve(at);
      }
      return new Promise((resolve, reject) => waiters.set(requestId, { resolve, reject }));
    },
    failAll(error) {
      for (const waiter of waiters.values()) waiter.reject(error);
      waiters.clear();
    },
    pending: () => [...waiters.keys()],
    async close() {
      await events.close();
    },
  };
}
