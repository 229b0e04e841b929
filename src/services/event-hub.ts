/**
 * Live run events for server-sent event streams. One PostgreSQL connection LISTENs on the channel the
 * run_events trigger notifies (drizzle/0001_run_event_notify.sql); each notification names a run, and
 * that run's subscribers read their new rows from the table. The table stays the source of truth: a
 * notification only says "look again", so a missed one costs latency (the fallback poll), never an event.
 */
import pg from 'pg';
import type { Logger } from '../observability/logger.ts';

export const RUN_EVENTS_CHANNEL = 'vetted_run_events';
/** Subscribers look again this often even without a notification (after a reconnect, say). */
export const FALLBACK_POLL_MS = 5000;
const RECONNECT_DELAY_MS = 1000;

export type Wake = () => void;

export interface EventHub {
  /** Calls `wake` whenever the run may have new events. Returns the unsubscribe function. */
  subscribe(runId: string, wake: Wake): () => void;
  close(): Promise<void>;
}

export function createEventHub(databaseUrl: string, logger: Logger): EventHub {
  const subscribers = new Map<string, Set<Wake>>();
  let client: pg.Client | undefined;
  let closed = false;
  let connecting: Promise<void> | undefined;

  const wakeAll = () => {
    for (const wakes of subscribers.values()) for (const wake of wakes) wake();
  };

  async function connect(): Promise<void> {
    if (closed) return;
    const next = new pg.Client({ connectionString: databaseUrl });
    next.on('notification', (message) => {
      for (const wake of subscribers.get(message.payload ?? '') ?? []) wake();
    });
    next.on('error', (error) => {
      logger.warn({ err: error }, 'event hub lost its PostgreSQL connection; reconnecting');
      client = undefined;
      next.end().catch(() => undefined);
      setTimeout(() => void ensureConnected(), RECONNECT_DELAY_MS).unref();
    });
    await next.connect();
    await next.query(`LISTEN ${RUN_EVENTS_CHANNEL}`);
    client = next;
    // Anything written while we were not listening is picked up now.
    wakeAll();
  }

  function ensureConnected(): Promise<void> {
    if (client || closed) return Promise.resolve();
    connecting ??= connect()
      .catch((error: unknown) => {
        logger.warn({ err: error }, 'event hub could not LISTEN; retrying');
        setTimeout(() => void ensureConnected(), RECONNECT_DELAY_MS).unref();
      })
      .finally(() => {
        connecting = undefined;
      });
    return connecting;
  }

  return {
    subscribe(runId, wake) {
      void ensureConnected();
      const wakes = subscribers.get(runId) ?? new Set<Wake>();
      wakes.add(wake);
      subscribers.set(runId, wakes);
      const poll = setInterval(wake, FALLBACK_POLL_MS);
      poll.unref();
      return () => {
        clearInterval(poll);
        wakes.delete(wake);
        if (wakes.size === 0) subscribers.delete(runId);
      };
    },
    async close() {
      closed = true;
      subscribers.clear();
      await client?.end().catch(() => undefined);
      client = undefined;
    },
  };
}
