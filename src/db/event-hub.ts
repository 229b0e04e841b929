/**
 * Live run events for server-sent event streams. While anyone is subscribed, one query every
 * EVENT_POLL_MS asks PostgreSQL for the newest event id of each subscribed run (run_events_run_id_idx
 * answers it), and wakes the subscribers of every run whose newest id moved; they read their new rows from
 * the table themselves. With nobody subscribed the hub costs nothing.
 *
 * Why a poll and not LISTEN/NOTIFY (drizzle/0005_drop_run_event_notify.sql): a NOTIFY takes a lock that
 * serialises every committing transaction that sent one, and every stage move writes an event, so a trigger
 * notifying per event made each move of every run wait on the others' commits. Without it the pipeline ran
 * 10-15% faster in `npm run bench`; a stream now hears of an event up to EVENT_POLL_MS later.
 *
 * The table stays the source of truth: a wake only says "look again", and each subscriber is also woken every
 * FALLBACK_POLL_MS, so an event the poll did not notice (ids are taken at insert and committed in any order)
 * costs latency, never the event. The streams send an event only once no lower id can still commit: the hub
 * also says which transactions are running (api/settled-events.ts). The embedded store has one connection, and
 * its queries wait behind transactions, so there a read never sees a gap and events settle at once.
 */
import pg from 'pg';
import type { Logger } from '../observability/logger.ts';
import type { Database } from './client.ts';
import type { EventHub, Wake } from '../engine/event-hub.ts';

export type { EventHub, TransactionSnapshot, Wake } from '../engine/event-hub.ts';

/** How often the hub looks for new events while someone is subscribed. */
export const EVENT_POLL_MS = 150;
/** Subscribers look again this often whatever the hub saw. */
export const FALLBACK_POLL_MS = 5000;

const NEWEST_OF_ALL = { name: 'vetted_hub_newest_of_all', text: 'select max(id)::text as newest from run_events' };

const NEWEST_EVENTS = {
  name: 'vetted_hub_newest_events',
  text: 'select run_id, max(id)::text as newest from run_events where run_id = any($1::uuid[]) group by run_id',
};

/**
 * The writing transactions running now in this database, as full (epoch-carrying) ids, and the snapshot's xmin.
 * Not the snapshot's own list: it names every database's transactions (ids are the server's), so a long one
 * elsewhere on a shared server held every stream until it ended; and it leaves out those whose id is at or
 * above its xmax (begun after the newest commit), which can still hold a lower event id. pg_stat_activity
 * names each running transaction's 32-bit id and its database; the id is widened against the snapshot's xmax,
 * which it lies within 2^31 of.
 */
const TRANSACTIONS = {
  name: 'vetted_hub_transactions',
  // A comma-separated list, not an array: the embedded store's pool hands arrays back as text.
  text: `with snap as (select pg_snapshot_xmin(s)::text::bigint as xmin, pg_snapshot_xmax(s)::text::bigint as xmax from pg_current_snapshot() s)
    select snap.xmin::text as xmin, coalesce((
      select string_agg((snap.xmax - (((snap.xmax % 4294967296) - a.backend_xid::text::bigint + 6442450944) % 4294967296 - 2147483648))::text, ',')
      from pg_stat_activity a where a.datname = current_database() and a.backend_xid is not null
    ), '') as running
    from snap`,
};

/** Where a hub reads events: its own connection to the server, or the embedded store's pool (PGlite has no server). */
export function eventHubSource(database: Database, databaseUrl: string): string | pg.Pool {
  return database.embedded ? database.pool : databaseUrl;
}

/**
 * @param source the database URL (the hub opens a connection of its own), or a pool it borrows: the embedded
 *   store's, which is the only way into PGlite (its queries then wait their turn behind transactions).
 */
export function createEventHub(source: string | pg.Pool, logger: Logger, options: { fallbackPollMs?: number } = {}): EventHub {
  const fallbackPollMs = options.fallbackPollMs ?? FALLBACK_POLL_MS;
  const subscribers = new Map<string, Set<Wake>>();
  /** Subscribers to every run's events, and the newest event id the hub last saw for them. */
  const allSubscribers = new Set<Wake>();
  let newestOfAll: string | undefined;
  /** The newest event id the hub has seen per subscribed run; absent until a poll after subscribing sees it. */
  const newestSeen = new Map<string, string>();
  // One connection is enough: one query per interval. The pool reconnects after PostgreSQL restarts.
  const owned = typeof source === 'string';
  const pool = owned ? new pg.Pool({ connectionString: source, max: 1 }) : source;
  if (owned) pool.on('error', () => undefined);
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let failing = false;

  const schedule = () => {
    if (closed || timer || (subscribers.size === 0 && allSubscribers.size === 0)) return;
    timer = setTimeout(() => void poll(), EVENT_POLL_MS);
    timer.unref();
  };

  async function poll(): Promise<void> {
    try {
      const runIds = [...subscribers.keys()];
      if (runIds.length > 0) wakeChanged((await pool.query<{ run_id: string; newest: string }>({ ...NEWEST_EVENTS, values: [runIds] })).rows);
      if (allSubscribers.size > 0) wakeAllIfMoved((await pool.query<{ newest: string | null }>(NEWEST_OF_ALL)).rows[0]?.newest ?? '0');
      if (failing) logger.info('event hub reads events again');
      failing = false;
    } catch (error) {
      // The fallback poll keeps streams moving meanwhile; say so once per outage, not every interval (and not
      // at all for the query close() cut short).
      if (!failing && !closed) logger.warn({ err: error }, 'event hub could not read new events; retrying');
      failing = true;
    } finally {
      timer = undefined;
      schedule();
    }
  }

  function wakeChanged(rows: { run_id: string; newest: string }[]): void {
    for (const { run_id: runId, newest } of rows) {
      if (newestSeen.get(runId) === newest) continue;
      newestSeen.set(runId, newest);
      for (const wake of subscribers.get(runId) ?? []) wake();
    }
  }

  function wakeAllIfMoved(newest: string): void {
    if (newestOfAll === newest) return;
    newestOfAll = newest;
    for (const wake of allSubscribers) wake();
  }

  return {
    subscribeAll(wake) {
      allSubscribers.add(wake);
      newestOfAll = undefined;
      schedule();
      const fallback = setInterval(wake, fallbackPollMs);
      fallback.unref();
      return () => {
        clearInterval(fallback);
        allSubscribers.delete(wake);
      };
    },
    subscribe(runId, wake) {
      const wakes = subscribers.get(runId) ?? new Set<Wake>();
      wakes.add(wake);
      subscribers.set(runId, wakes);
      // A new subscriber is woken by the first poll that sees its run, whatever an earlier one saw.
      newestSeen.delete(runId);
      schedule();
      const fallback = setInterval(wake, fallbackPollMs);
      fallback.unref();
      return () => {
        clearInterval(fallback);
        wakes.delete(wake);
        if (wakes.size === 0) {
          subscribers.delete(runId);
          newestSeen.delete(runId);
        }
      };
    },
    async transactions() {
      const [row] = (await pool.query<{ xmin: string; running: string }>(TRANSACTIONS)).rows;
      return { xmin: BigInt(row!.xmin), running: row!.running === '' ? [] : row!.running.split(',').map(BigInt) };
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      timer = undefined;
      subscribers.clear();
      allSubscribers.clear();
      newestSeen.clear();
      if (owned) await pool.end().catch(() => undefined);
    },
  };
}
