/**
 * What a request costs, split by who paid: CPU time of the worker process (asked over IPC), of this driver
 * process, and of the PostgreSQL backends serving the bench database (utime + stime from /proc/<pid>/stat);
 * plus PostgreSQL queries and Redis commands sent by both processes (call-counter.ts). Wall-clock figures
 * move with whatever else the machine runs; these move much less (the counts not at all), and they say
 * whether a slower system is slow in its own code, in round trips, or in the database.
 *
 * Redis CPU is left out: it is one server shared with everyone, with no per-client CPU figure. The
 * PostgreSQL CPU needs the server on this machine and Linux /proc; otherwise it is left out too.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type pg from 'pg';
import { callCounts, type CallCounts } from './call-counter.ts';
import { createWalMeter, type WalPerRequest } from './wal-meter.ts';
import type { WorkerProcess } from './worker-process.ts';

export interface CostSnapshot {
  /** Server-side process CPU (the worker process, plus the API process where one runs), user + system, ms. */
  workerCpuMs: number;
  /** This process's CPU: submitting (submitRun, or the baseline's INSERT + add) and reading completions. */
  driverCpuMs: number;
  /** Driver + worker process. */
  calls: CallCounts;
  /** CPU ticks per backend pid; undefined when the server's processes cannot be read. */
  pgTicks: Map<number, number> | undefined;
  /** The WAL flush position (wal-meter.ts); undefined when it cannot be read. */
  walLsn: string | undefined;
}

/** Per request, between two snapshots. */
export interface RequestCosts {
  workerCpuMs: number;
  driverCpuMs: number;
  pgCpuMs: number | undefined;
  pgQueries: number;
  redisCommands: number;
  /** WAL written per request (wal-meter.ts); undefined when the position cannot be read. */
  wal?: WalPerRequest;
}

export interface CostMeter {
  snapshot(): Promise<CostSnapshot>;
  perRequest(before: CostSnapshot, after: CostSnapshot, requests: number): Promise<RequestCosts>;
}

const TICKS_PER_SECOND = clockTicks();

/** @param workers the processes serving requests (workers, and the API process when the phase runs one), summed. */
export function createCostMeter(workers: WorkerProcess | readonly WorkerProcess[], pool: pg.Pool, databaseUrl: string): CostMeter {
  const processes = Array.isArray(workers) ? workers : [workers as WorkerProcess];
  const databaseName = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  const local = canReadBackends(databaseUrl);
  const wal = createWalMeter(pool);
  return {
    async snapshot() {
      // The WAL mark last: after the worker stats, so nothing the run wrote is still unflushed before it.
      const [stats, pgTicks] = await Promise.all([Promise.all(processes.map((p) => p.stats())), local ? backendTicks(pool, databaseName) : undefined]);
      const walLsn = await wal.mark().catch(() => undefined);
      const driver = process.cpuUsage();
      const own = callCounts();
      const sum = (of: (s: (typeof stats)[number]) => number) => stats.reduce((total, s) => total + of(s), 0);
      return {
        workerCpuMs: sum((s) => s.cpu.user + s.cpu.system) / 1000,
        driverCpuMs: (driver.user + driver.system) / 1000,
        calls: { pgQueries: own.pgQueries + sum((s) => s.calls.pgQueries), redisCommands: own.redisCommands + sum((s) => s.calls.redisCommands) },
        pgTicks,
        walLsn,
      };
    },
    async perRequest(before, after, requests) {
      const per = (a: number, b: number) => (b - a) / requests;
      const walUsed = before.walLsn && after.walLsn ? await wal.between(before.walLsn, after.walLsn, requests) : undefined;
      return {
        ...(walUsed ? { wal: walUsed } : {}),
        workerCpuMs: per(before.workerCpuMs, after.workerCpuMs),
        driverCpuMs: per(before.driverCpuMs, after.driverCpuMs),
        pgCpuMs: pgCpuMs(before.pgTicks, after.pgTicks, requests),
        pgQueries: per(before.calls.pgQueries, after.calls.pgQueries),
        redisCommands: per(before.calls.redisCommands, after.calls.redisCommands),
      };
    },
  };
}

function pgCpuMs(before: Map<number, number> | undefined, after: Map<number, number> | undefined, requests: number): number | undefined {
  if (!before || !after) return undefined;
  let ticks = 0;
  // A backend that started during the window counts whole; one that ended during it is lost (pools keep
  // their connections while busy, so this is rare).
  for (const [pid, now] of after) ticks += now - (before.get(pid) ?? 0);
  return (ticks * 1000) / TICKS_PER_SECOND / requests;
}

async function backendTicks(pool: pg.Pool, databaseName: string): Promise<Map<number, number>> {
  const { rows } = await pool.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [databaseName]);
  const ticks = new Map<number, number>();
  for (const { pid } of rows) {
    // A backend that exited since the query has nothing more to count.
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
    if (stat !== undefined) ticks.set(pid, parseStatTicks(stat));
  }
  return ticks;
}

/** Backend pids are only ours to read when the server runs on this (Linux) machine. */
function canReadBackends(databaseUrl: string): boolean {
  const host = new URL(databaseUrl).hostname;
  return ['127.0.0.1', 'localhost', '::1', '[::1]', ''].includes(host) && existsSync('/proc/self/stat');
}

/** utime + stime: fields 14 and 15 of /proc/<pid>/stat, counted after the `(comm)` that may hold spaces. */
function parseStatTicks(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

function clockTicks(): number {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100; // USER_HZ on every mainstream Linux
  }
}
