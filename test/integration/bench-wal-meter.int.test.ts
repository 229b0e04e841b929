/**
 * The bench's WAL meter (bench/wal-meter.ts) on the real PostgreSQL: it counts the WAL its own database's
 * transactions write, commits included, and leaves out what another database writes in the same window.
 * No timings: only which records count.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWalMeter, releaseWal } from '../../bench/wal-meter.ts';
import { createTestDatabase, databaseUrl, dropTestDatabase } from '../support/databases.ts';
import { eventually } from '../support/test-system.ts';

describe('bench WAL meter', () => {
  const names: string[] = [];
  let mine: pg.Pool;
  let other: pg.Pool;

  beforeAll(async () => {
    names.push(await createTestDatabase(), await createTestDatabase());
    mine = new pg.Pool({ connectionString: databaseUrl(names[0] ?? ''), max: 2 });
    other = new pg.Pool({ connectionString: databaseUrl(names[1] ?? ''), max: 2 });
    for (const pool of [mine, other]) await pool.query('create table wal_probe (id int primary key, body text not null)');
  });

  afterAll(async () => {
    await releaseWal();
    await mine?.end();
    await other?.end();
    for (const name of names) await dropTestDatabase(name);
  });

  it("counts its database's records and commits, not another database's", async () => {
    const meter = createWalMeter(mine);
    const before = await meter.mark();
    for (let i = 0; i < 20; i++) await mine.query('insert into wal_probe (id, body) values ($1, $2)', [i, 'x'.repeat(100)]);
    // Ten times as much WAL in the other database, in the same window.
    for (let i = 0; i < 20; i++) await other.query('insert into wal_probe (id, body) values ($1, $2)', [i, 'y'.repeat(2000)]);
    const after = await meter.mark();
    const wal = await meter.between(before, after, 20);

    expect(wal.own).toBeDefined();
    // 20 single-statement transactions: one commit record each.
    expect(wal.own?.commits).toBe(1);
    // Each insert writes a heap record and an index record of at least the row's 100 bytes.
    expect(wal.own?.bytes).toBeGreaterThan(100);
    expect(wal.own?.records).toBeGreaterThanOrEqual(3);
    // The other database's 2,000-byte rows are in the server-wide figure only.
    expect(wal.serverBytes).toBeGreaterThan(2000);
    expect(wal.own?.bytes ?? Infinity).toBeLessThan(2000);
  });

  it('keeps the WAL it has not read yet in a temporary replication slot, and lets it go when released', async () => {
    const meter = createWalMeter(mine);
    await meter.mark();
    const slots = async () => (await mine.query<{ n: number }>("select count(*)::int as n from pg_replication_slots where slot_name like $1 and temporary", [`vetted_bench_${process.pid}_%`])).rows[0]?.n;
    expect(await slots()).toBe(1);
    await releaseWal();
    // The server drops a temporary slot as its session ends, a moment after the client has closed.
    await eventually(async () => ((await slots()) === 0 ? true : undefined), 15_000, 'the slot to go');
  });
});
