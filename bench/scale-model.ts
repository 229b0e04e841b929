/**
 * The scaling model of phase `scale`: what a fleet of worker cores with one PostgreSQL primary (and one Redis)
 * reaches, from what one request costs as measured on this machine. Pure arithmetic, so it is tested apart.
 *
 * Each resource caps the request rate at (its capacity) / (what one request takes of it):
 *   workers   fleet cores × 1000 / (worker + driver CPU ms per request)   (the driver's share is the API's:
 *             submitting runs belongs to the fleet too)
 *   postgres  primary cores × 1000 / PostgreSQL CPU ms per request      (backends' CPU; assumes it scales with
 *             cores, which is optimistic past 16–32 cores: WAL insertion and lock contention)
 *   wal       WAL bandwidth budget / WAL bytes per request               (the budget is an assumption: what the
 *             primary's disk and its replication stream sustain, not measured here)
 *   redis     1000 / Redis CPU ms per request                            (Redis runs commands on one core)
 * The fleet reaches the smallest of them; the resource that gives it is where it stops.
 */

export interface PerRequestCosts {
  workerCpuMs: number;
  driverCpuMs: number;
  pgCpuMs: number;
  walBytes: number;
  /** Statements sent to PostgreSQL (driver + workers), for the statement rate at the ceiling. */
  pgQueries: number;
  /** Redis CPU per request, when measured (an upper bound on a shared Redis). */
  redisCpuMs?: number;
}

export interface FleetAssumptions {
  fleetCores: number;
  pgCores: number;
  walBytesPerSecond: number;
}

export type Resource = 'workers' | 'postgres' | 'wal' | 'redis';

export interface FleetEstimate {
  /** Requests per second each resource allows. */
  limits: Partial<Record<Resource, number>>;
  /** The smallest limit, and which resource sets it. */
  reached: number;
  bound: Resource;
  /** Worker cores beyond which more gain nothing: the lowest ceiling other than the workers', in worker cores. */
  coresToNextLimit: number;
  /** At the reached rate: PostgreSQL statements per second, and WAL bytes per second. */
  statementsPerSecond: number;
  walBytesPerSecond: number;
}

export const DEFAULT_ASSUMPTIONS: Readonly<FleetAssumptions> = {
  fleetCores: 16,
  pgCores: 16,
  // 100 MB/s: a conservative sustained WAL rate for one primary streaming to a replica on cloud SSD.
  walBytesPerSecond: 100e6,
};

export function fleetEstimate(costs: PerRequestCosts, assumptions: FleetAssumptions = DEFAULT_ASSUMPTIONS): FleetEstimate {
  const positive = (name: string, value: number) => {
    if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got ${value}`);
    return value;
  };
  const appMs = positive('worker + driver CPU ms per request', costs.workerCpuMs + costs.driverCpuMs);
  const limits: Partial<Record<Resource, number>> = {
    workers: (positive('fleet cores', assumptions.fleetCores) * 1000) / appMs,
    postgres: (positive('PostgreSQL cores', assumptions.pgCores) * 1000) / positive('PostgreSQL CPU ms per request', costs.pgCpuMs),
    wal: positive('WAL bandwidth', assumptions.walBytesPerSecond) / positive('WAL bytes per request', costs.walBytes),
  };
  if (costs.redisCpuMs !== undefined && costs.redisCpuMs > 0) limits.redis = 1000 / costs.redisCpuMs;
  const ranked = (Object.entries(limits) as [Resource, number][]).sort((a, b) => a[1] - b[1]);
  const [bound, reached] = ranked[0] as [Resource, number];
  const nextOther = ranked.find(([resource]) => resource !== 'workers')?.[1] ?? reached;
  return {
    limits,
    reached,
    bound,
    coresToNextLimit: (nextOther * appMs) / 1000,
    statementsPerSecond: reached * costs.pgQueries,
    walBytesPerSecond: reached * costs.walBytes,
  };
}

/** Throughput with N processes over throughput with one: 1 = no gain, N = linear. */
export function scalingFactor(rateOne: number, rateN: number): number {
  return rateOne > 0 && Number.isFinite(rateOne) && Number.isFinite(rateN) ? rateN / rateOne : Number.NaN;
}

/** used_cpu_sys + used_cpu_user from INFO cpu, in ms. */
export function parseRedisCpuMs(info: string): number {
  const field = (name: string) => Number(new RegExp(`^${name}:([0-9.]+)`, 'm').exec(info)?.[1] ?? Number.NaN);
  return (field('used_cpu_sys') + field('used_cpu_user')) * 1000;
}

/** Redis CPU per request: the whole server's during the run (an upper bound), and less the idle rate (an estimate). */
export interface RedisShare {
  upperBoundMs: number;
  estimateMs: number | undefined;
}

export function redisShare(runCpuMs: number, idleCpuMs: number, requests: number): RedisShare | undefined {
  if (!Number.isFinite(runCpuMs) || requests <= 0) return undefined;
  const rest = runCpuMs - (Number.isFinite(idleCpuMs) ? idleCpuMs : 0);
  return { upperBoundMs: runCpuMs / requests, estimateMs: rest > 0 ? rest / requests : undefined };
}
