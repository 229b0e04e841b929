/**
 * The bench's pure arithmetic: percentiles and ratios, WAL positions and their differences, the
 * fleet scaling model, Redis CPU shares, and the call tracker that ends a peer's requests.
 */
import { describe, expect, it } from 'vitest';
import { createCallTracker } from '../../bench/call-completion.ts';
import { ascending, percentile, ratio } from '../../bench/report.ts';
import { fleetEstimate, parseRedisCpuMs, redisShare, scalingFactor } from '../../bench/scale-model.ts';
import { databaseBlockPattern, lsnDiff, parseLsn, walPerRequest } from '../../bench/wal-meter.ts';

describe('percentiles and ratios', () => {
  it('takes the nearest rank, always a value some request had', () => {
    const sorted = ascending([5, 1, 4, 2, 3, 10, 9, 8, 7, 6]);
    expect(percentile(sorted, 0.5)).toBe(5);
    expect(percentile(sorted, 0.99)).toBe(10);
    expect(percentile(sorted, 0.1)).toBe(1);
    expect(percentile([], 0.5)).toBeNaN();
  });

  it('divides, and says NaN rather than Infinity when there is nothing to divide by', () => {
    expect(ratio(150, 50)).toBe(3);
    expect(ratio(1, 0)).toBeNaN();
    expect(ratio(Number.NaN, 2)).toBeNaN();
  });
});

describe('WAL arithmetic', () => {
  it('reads an LSN as a 64-bit position, high word first', () => {
    expect(parseLsn('0/0')).toBe(0n);
    expect(parseLsn('0/16B3748')).toBe(0x16b3748n);
    expect(parseLsn('16/B374D848')).toBe((0x16n << 32n) + 0xb374d848n);
  });

  it('differences positions as pg_wal_lsn_diff does, across the 4 GiB word boundary', () => {
    expect(lsnDiff('0/2000', '0/1000')).toBe(0x1000);
    expect(lsnDiff('1/00000010', '0/FFFFFFF0')).toBe(0x20);
    expect(lsnDiff('0/1000', '0/2000')).toBe(-0x1000);
  });

  it('refuses what is not an LSN, naming it', () => {
    expect(() => parseLsn('16-B374D848')).toThrow(/not a WAL position \(LSN\): "16-B374D848"/);
    expect(() => parseLsn('')).toThrow(/LSN/);
  });

  it('divides a run by its requests, keeping the database-own figures apart', () => {
    const per = walPerRequest(40_000, { bytes: 26_000, fpiBytes: 8192, records: 100, commits: 14 }, 2);
    expect(per).toEqual({ serverBytes: 20_000, own: { bytes: 13_000, fpiBytes: 4096, records: 50, commits: 7 } });
    expect(walPerRequest(1000, undefined, 10)).toEqual({ serverBytes: 100 });
    expect(() => walPerRequest(1000, undefined, 0)).toThrow(/requests must be positive/);
  });

  it("matches a block reference in its database only, whatever the tablespace", () => {
    const pattern = new RegExp(databaseBlockPattern(16384));
    expect(pattern.test('blkref #0: rel 1663/16384/2619 fork main blk 13')).toBe(true);
    expect(pattern.test('blkref #0: rel 16390/16384/24576 blk 0')).toBe(true);
    expect(pattern.test('blkref #0: rel 1663/163840/2619 blk 13')).toBe(false);
    expect(pattern.test('blkref #0: rel 1663/5/16384 blk 13')).toBe(false);
  });
});

describe('the fleet scaling model', () => {
  const costs = { workerCpuMs: 4, driverCpuMs: 1, pgCpuMs: 2, walBytes: 10_000, pgQueries: 7 };

  it('takes the smallest ceiling and names the resource that sets it', () => {
    const estimate = fleetEstimate(costs, { fleetCores: 16, pgCores: 16, walBytesPerSecond: 100e6 });
    // 16 cores × 1000 / 5 ms = 3200; 16 × 1000 / 2 = 8000; 100e6 / 10,000 = 10,000.
    expect(estimate.limits).toEqual({ workers: 3200, postgres: 8000, wal: 10_000 });
    expect(estimate.bound).toBe('workers');
    expect(estimate.reached).toBe(3200);
    expect(estimate.statementsPerSecond).toBe(3200 * 7);
    expect(estimate.walBytesPerSecond).toBe(3200 * 10_000);
    // PostgreSQL's 8000 req/s takes 8000 × 5 ms = 40 worker cores.
    expect(estimate.coresToNextLimit).toBe(40);
  });

  it('stops at PostgreSQL, the WAL or Redis when they are smaller', () => {
    expect(fleetEstimate({ ...costs, pgCpuMs: 20 }, { fleetCores: 16, pgCores: 16, walBytesPerSecond: 100e6 }).bound).toBe('postgres');
    expect(fleetEstimate({ ...costs, walBytes: 100_000 }, { fleetCores: 16, pgCores: 16, walBytesPerSecond: 100e6 }).bound).toBe('wal');
    const redis = fleetEstimate({ ...costs, redisCpuMs: 0.5 }, { fleetCores: 16, pgCores: 16, walBytesPerSecond: 100e6 });
    expect(redis).toMatchObject({ bound: 'redis', reached: 2000 });
  });

  it('refuses costs or assumptions that are not positive, naming them', () => {
    expect(() => fleetEstimate({ ...costs, pgCpuMs: 0 })).toThrow(/PostgreSQL CPU ms per request must be a positive number, got 0/);
    expect(() => fleetEstimate(costs, { fleetCores: 0, pgCores: 16, walBytesPerSecond: 1 })).toThrow(/fleet cores/);
    expect(() => fleetEstimate({ ...costs, walBytes: Number.NaN })).toThrow(/WAL bytes per request/);
  });

  it('says how throughput grew with more processes', () => {
    expect(scalingFactor(100, 180)).toBe(1.8);
    expect(scalingFactor(0, 180)).toBeNaN();
  });
});

describe('Redis CPU', () => {
  it('reads used_cpu_sys + used_cpu_user from INFO cpu, in ms', () => {
    const info = '# CPU\r\nused_cpu_sys:12.5\r\nused_cpu_user:30.25\r\nused_cpu_sys_children:1.0\r\n';
    expect(parseRedisCpuMs(info)).toBe(42_750);
    expect(parseRedisCpuMs('# CPU\r\n')).toBeNaN();
  });

  it("takes the idle window's share off the run and keeps the whole as an upper bound", () => {
    expect(redisShare(1000, 400, 100)).toEqual({ upperBoundMs: 10, estimateMs: 6 });
    // Others were busier during the idle window than during the run: no estimate, only the bound.
    expect(redisShare(1000, 1500, 100)).toEqual({ upperBoundMs: 10, estimateMs: undefined });
    expect(redisShare(Number.NaN, 0, 100)).toBeUndefined();
  });
});

describe('the call tracker', () => {
  it('ends a request when its call answers, also when the answer comes before the wait', async () => {
    const tracker = createCallTracker();
    tracker.track('early', Promise.resolve('done'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    await expect(tracker.wait('early')).resolves.toBeTypeOf('number');
    let answer!: (value: unknown) => void;
    tracker.track('late', new Promise((resolve) => (answer = resolve)));
    const waiting = tracker.wait('late');
    expect(tracker.pending()).toEqual(['late']);
    answer('done');
    await expect(waiting).resolves.toBeTypeOf('number');
    expect(tracker.pending()).toEqual([]);
  });

  it("passes a failed call's error to its wait, and failAll to every wait", async () => {
    const tracker = createCallTracker();
    tracker.track('broken', Promise.reject(new Error('peer said no')));
    await new Promise((resolve) => setTimeout(resolve, 0));
    await expect(tracker.wait('broken')).rejects.toThrow('peer said no');
    tracker.track('stuck', new Promise(() => undefined));
    const stuck = tracker.wait('stuck');
    tracker.failAll(new Error('stalled'));
    await expect(stuck).rejects.toThrow('stalled');
  });
});
