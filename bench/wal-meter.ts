/**
 * WAL written per request: the input a single-primary scaling model needs (how many bytes each request asks
 * the primary to write, flush and ship to replicas).
 *
 * Two figures, both from the flush LSN before and after a run (pg_current_wal_flush_lsn(): every committed
 * transaction's WAL is flushed before its commit returns, so the mark after a run covers all of it):
 *
 * - server-wide: the LSN difference (what pg_wal_lsn_diff computes). It counts every database on the server,
 *   so on a machine where others work too (tests, other benches) it is an upper bound, and a noisy one.
 * - the bench database's own: pg_walinspect reads the WAL records between the two marks and keeps those
 *   whose blocks belong to the bench database (block_ref `rel <tablespace>/<database oid>/<relation>`), plus
 *   the commit records of the transactions that wrote them. Other databases' records, checkpoints and
 *   running-xacts records are left out, so this needs no quiet window and no idle baseline. It also splits out
 *   full-page images (the first change to a page after each checkpoint writes the whole 8 KiB page), which
 *   depend on when checkpoints fall, not on the request, and counts commits (write transactions) and records.
 *
 * The records must still be on disk when they are read, and a checkpoint removes the segments before its redo
 * point: on a server where others create and drop databases (each DROP DATABASE forces a checkpoint), a run's
 * WAL is often gone by the time the run ends. So the meter first holds a temporary physical replication slot
 * (retainWal): the server keeps WAL from the slot's position on; after each reading the slot moves up to
 * the end of what was read, so nothing is kept longer than one run. The slot lives as long as its
 * connection: a bench that is killed leaves nothing behind.
 *
 * pg_walinspect ships with PostgreSQL 15+ (contrib) and needs a superuser (or pg_read_server_files); where it
 * is missing, or no replication slot is free, only the server-wide figure (or a reading that may fail) is shown.
 */
import pg from 'pg';

/** WAL per request between two marks. */
export interface WalPerRequest {
  /** Server-wide LSN difference / requests (every database on the server). */
  serverBytes: number;
  /** The bench database's own records (undefined: pg_walinspect unavailable, or the WAL was recycled). */
  own?: {
    bytes: number;
    /** Of `bytes`, full-page images. */
    fpiBytes: number;
    records: number;
    /** Commit records: write transactions. */
    commits: number;
  };
}

/** `16/B374D848` → its 64-bit position. */
export function parseLsn(lsn: string): bigint {
  const match = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(lsn.trim());
  if (!match) throw new Error(`not a WAL position (LSN): "${lsn}"`);
  return (BigInt(`0x${match[1]}`) << 32n) + BigInt(`0x${match[2]}`);
}

/** Bytes of WAL from `from` to `to`, as pg_wal_lsn_diff(to, from) computes it. */
export function lsnDiff(to: string, from: string): number {
  return Number(parseLsn(to) - parseLsn(from));
}

/** Divides a run's WAL by its requests; `own` is left out when it was not measured. */
export function walPerRequest(serverBytes: number, own: { bytes: number; fpiBytes: number; records: number; commits: number } | undefined, requests: number): WalPerRequest {
  if (requests <= 0) throw new Error(`requests must be positive, got ${requests}`);
  const per = (n: number) => n / requests;
  return {
    serverBytes: per(serverBytes),
    ...(own ? { own: { bytes: per(own.bytes), fpiBytes: per(own.fpiBytes), records: per(own.records), commits: per(own.commits) } } : {}),
  };
}

/** The block_ref pattern of a database's relations (any tablespace). */
export function databaseBlockPattern(databaseOid: number): string {
  return `rel [0-9]+/${databaseOid}/`;
}

const OWN_RECORDS = `
with r as (
  select xid, resource_manager, record_type, record_length, fpi_length, block_ref
  from pg_get_wal_records_info($1::pg_lsn, $2::pg_lsn)
),
writers as (select distinct xid from r where block_ref ~ $3 and xid::text <> '0'),
own as (
  select * from r
  where block_ref ~ $3 or (resource_manager = 'Transaction' and xid in (select xid from writers))
)
select coalesce(sum(record_length), 0)::float8 as bytes,
       coalesce(sum(fpi_length), 0)::float8 as fpi,
       count(*)::int as records,
       (count(*) filter (where resource_manager = 'Transaction' and record_type like 'COMMIT%'))::int as commits
from own`;

export interface WalMeter {
  mark(): Promise<string>;
  /** WAL between two marks, per request. Never throws: what cannot be read is left out. */
  between(from: string, to: string, requests: number): Promise<WalPerRequest>;
}

/** The temporary slot that keeps WAL on disk until it is read: one per process, held by its own connection. */
let retention: Promise<{ client: pg.Client; slot: string } | undefined> | undefined;

/** Holds a temporary physical replication slot on the pool's server until releaseWal (or the process ends). */
function retainWal(pool: pg.Pool): Promise<{ client: pg.Client; slot: string } | undefined> {
  return (retention ??= (async () => {
    const client = new pg.Client(pool.options);
    // The bench drops its database (and this session with it) at the end: that is how the slot goes.
    client.on('error', () => undefined);
    try {
      await client.connect();
      const slot = `vetted_bench_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
      await client.query('select pg_create_physical_replication_slot($1, true, true)', [slot]);
      return { client, slot };
    } catch {
      await client.end().catch(() => undefined);
      return undefined;
    }
  })());
}

/** Drops the slot (by closing its session). The bench calls it at the end; a process that exits drops it too. */
export async function releaseWal(): Promise<void> {
  const held = await retention;
  retention = undefined;
  await held?.client.end().catch(() => undefined);
}

export function createWalMeter(pool: pg.Pool): WalMeter {
  let inspect: Promise<{ pattern: string } | undefined> | undefined;
  // Once per meter: the extension lives in the bench database, which is dropped at the end.
  const ready = () =>
    (inspect ??= (async () => {
      try {
        await retainWal(pool);
        await pool.query('create extension if not exists pg_walinspect').catch(async () => {
          // Another meter of the same bench created it at the same moment; it is there or it is not.
          await pool.query("select 1 from pg_extension where extname = 'pg_walinspect'");
        });
        const { rows } = await pool.query<{ oid: number }>('select oid::int as oid from pg_database where datname = current_database()');
        return rows[0] ? { pattern: databaseBlockPattern(rows[0].oid) } : undefined;
      } catch {
        return undefined;
      }
    })());
  return {
    async mark() {
      await ready();
      const { rows } = await pool.query<{ lsn: string }>('select pg_current_wal_flush_lsn()::text as lsn');
      return rows[0]?.lsn ?? '0/0';
    },
    async between(from, to, requests) {
      const server = lsnDiff(to, from);
      const found = await ready();
      let own: { bytes: number; fpiBytes: number; records: number; commits: number } | undefined;
      if (found && server > 0) {
        try {
          const { rows } = await pool.query<{ bytes: number; fpi: number; records: number; commits: number }>(OWN_RECORDS, [from, to, found.pattern]);
          const row = rows[0];
          if (row) own = { bytes: row.bytes, fpiBytes: row.fpi, records: row.records, commits: row.commits };
        } catch {
          // The segments were recycled (no slot held them, and a checkpoint removed them), or the function is not ours to call.
          own = undefined;
        }
        // What was read need not be kept: the next run's marks are later (runs are measured one after another).
        const held = await retention;
        if (held) await held.client.query('select pg_replication_slot_advance($1, $2::pg_lsn)', [held.slot, to]).catch(() => undefined);
      }
      return walPerRequest(server, own, requests);
    },
  };
}
