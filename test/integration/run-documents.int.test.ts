/**
 * Hot and cold apart (migration 0011): a run's documents live in run_documents, one row per kind, written by
 * the move that produced each; runs keeps the hot columns, the ones every move changes last. Checked here on
 * the PostgreSQL store (the contract itself is in the conformance suite), and the migration on a database
 * holding runs from before it.
 */
import { randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { createDb, migrateDatabase, MIGRATIONS_DIR } from '../../src/db/client.ts';
import { createPgRunStore } from '../../src/db/pg-run-store.ts';
import type { NewRunRow, RunStore } from '../../src/engine/store.ts';
import { ADMIN_URL, databaseUrl, dropTestDatabase } from '../support/databases.ts';
import { createTestSystem, type TestSystem } from '../support/test-system.ts';

describe('run_documents on the PostgreSQL store', () => {
  let system: TestSystem;
  let store: RunStore;
  const rows = async (runId: string) =>
    (await system.database.pool.query<{ kind: string; attempt: number; body: unknown }>('select kind, attempt, body from run_documents where run_id = $1 order by kind', [runId])).rows;

  beforeAll(async () => {
    system = await createTestSystem();
    store = system.store;
  });
  afterAll(async () => system?.dispose());

  it('writes each document once when produced, replaces it in place, deletes it when cleared', async () => {
    const id = randomUUID();
    const row: NewRunRow = {
      id, tenantId: 't1', status: 'queued', stage: 'extract', attempt: 0, traceId: randomUUID(), threadId: id,
      builder: 'heuristic', provider: 'dry', policy: { mode: 'auto' }, request: { model: 'acme/img', prompt: 'a heron' },
    };
    const { run } = await store.insert(row, { type: 'run.created', actor: 'test', data: {} });
    expect(await rows(id)).toEqual([{ kind: 'request', attempt: 0, body: row.request }]);

    const opened = (await store.commit({ runId: id, from: ['queued'], to: 'assembling', guard: { attempt: 0 }, bumpAttempt: true, seen: run, set: { stage: 'assemble' } }))!.run;
    // A move that sets no document touches none.
    expect(await rows(id)).toHaveLength(1);
    const assembled = (await store.commit({
      runId: id, from: ['assembling'], to: 'building', guard: { stage: 'assemble', attempt: opened.attempt }, bumpAttempt: true, seen: opened,
      set: { stage: 'build', bundle: { prompt: 'a heron' } as never, issues: [] },
    }))!.run;
    // The bundle is written by the visit that produced it; empty issues are no row at all.
    expect(await rows(id)).toEqual([
      { kind: 'bundle', attempt: opened.attempt, body: { prompt: 'a heron' } },
      { kind: 'request', attempt: 0, body: row.request },
    ]);

    const edited = (await store.commit({ runId: id, from: ['building'], to: 'building', set: { bundle: { prompt: 'a grey heron' } as never, issues: [{ path: '/prompt' }] as never } }))!.run;
    expect(edited).toMatchObject({ bundle: { prompt: 'a grey heron' }, issues: [{ path: '/prompt' }] });
    expect((await rows(id)).map((r) => [r.kind, r.attempt, r.body])).toEqual([
      ['bundle', assembled.attempt, { prompt: 'a grey heron' }],
      ['issues', assembled.attempt, [{ path: '/prompt' }]],
      ['request', 0, row.request],
    ]);

    await store.commit({ runId: id, from: ['building'], to: 'failed', set: { bundle: null, issues: [] } });
    expect((await rows(id)).map((r) => r.kind)).toEqual(['request']);
    expect(await store.get(id)).toMatchObject({ status: 'failed', bundle: null, issues: [], candidate: null, result: null, request: row.request });
  });

  it('keeps the hot columns last in runs, and no document column on it', async () => {
    const { rows: columns } = await system.database.pool.query<{ name: string }>(
      "select attname as name from pg_attribute where attrelid = 'runs'::regclass and attnum > 0 and not attisdropped order by attnum",
    );
    const names = columns.map((c) => c.name);
    // An update's WAL record leaves out the row's unchanged prefix and suffix, so the columns every stage rewrites
    // sit together at the end; only the review assignment's columns, written far more rarely, come after them.
    const hot = names.indexOf('stage_started_at');
    expect(names.slice(hot, hot + 5)).toEqual(['stage_started_at', 'updated_at', 'attempt', 'stage', 'status']);
    expect(names.slice(hot + 5)).toEqual(['assigned_to', 'snoozes']);
    for (const gone of ['request', 'bundle', 'candidate', 'issues', 'result']) expect(names).not.toContain(gone);
  });
});

describe('migration 0011 on a database with runs from before', () => {
  const name = `vt_${Math.floor(Date.now() / 1000)}_mig0011_${Math.random().toString(36).slice(2, 8)}`;
  let folder: string;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    await admin.end();
    // The migrations up to 0010 alone: drizzle's migrator reads the journal, so a journal cut at 0010 stops there.
    folder = mkdtempSync(path.join(tmpdir(), 'vetted-mig-'));
    cpSync(MIGRATIONS_DIR, folder, { recursive: true });
    const journal = JSON.parse(readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as { entries: { idx: number }[] };
    journal.entries = journal.entries.filter((entry) => entry.idx <= 10);
    writeFileSync(path.join(folder, 'meta', '_journal.json'), JSON.stringify(journal));
  });

  afterAll(async () => {
    rmSync(folder, { recursive: true, force: true });
    await dropTestDatabase(name);
  });

  it('moves every document into run_documents, drops the columns, keeps the rows, the keys and the decisions', async () => {
    const database = createDb(databaseUrl(name), { max: 2 });
    try {
      await migrate(drizzle({ client: database.pool }), { migrationsFolder: folder });
      const pool = database.pool;
      const full = randomUUID();
      const fresh = randomUUID();
      const purged = randomUUID();
      const request = { model: 'acme/img', prompt: 'a lighthouse', edits: { seed: 7 } };
      const bundle = { prompt: 'a lighthouse', humanEdits: {} };
      const candidate = { payload: { prompt: 'a lighthouse', seed: 7 }, provenance: {}, builder: 'heuristic', confidence: 0.9 };
      const issues = [{ path: '/seed', code: 'range', message: 'too big', severity: 'warning' }];
      const result = { provider: 'dry', status: 'succeeded', output: { input: { prompt: 'a lighthouse' } } };
      const insert = `insert into runs (id, tenant_id, status, stage, attempt, trace_id, thread_id, builder, provider, policy, request, bundle, candidate, issues, result, completed_at, purged_at)
        values ($1::uuid, 't1', $2, $3, $4, 'trace', 'thread', 'heuristic', 'dry', '{"mode":"auto"}', $5, $6, $7, $8, $9, $10, $11)`;
      await pool.query(insert, [full, 'completed', 'execute', 5, request, bundle, candidate, JSON.stringify(issues), result, new Date(), null]);
      await pool.query(insert, [fresh, 'queued', 'extract', 0, request, null, null, '[]', null, null, null]);
      await pool.query(insert, [purged, 'completed', 'execute', 5, {}, null, null, '[]', null, new Date(), new Date()]);
      await pool.query(`insert into decisions (run_id, tenant_id, review_id, actor, action, raw, parsed, override) values ($1, 't1', $2, 'key:r', 'approve', '{}', '{}', false)`, [full, randomUUID()]);

      await migrateDatabase(database);

      const { rows } = await pool.query<{ run_id: string; kind: string; attempt: number; body: unknown }>('select run_id, kind, attempt, body from run_documents order by run_id, kind');
      const of = (id: string) => rows.filter((row) => row.run_id === id).map((row) => [row.kind, row.attempt, row.body]);
      expect(of(full)).toEqual([['bundle', 5, bundle], ['candidate', 5, candidate], ['issues', 5, issues], ['request', 5, request], ['result', 5, result]]);
      expect(of(fresh)).toEqual([['request', 0, request]]);
      expect(of(purged)).toEqual([]);

      const store = createPgRunStore(database);
      expect(await store.get(full)).toMatchObject({ status: 'completed', attempt: 5, request, bundle, candidate, issues, result, reviewEdits: {}, executionSeq: 1 });
      expect(await store.get(fresh)).toMatchObject({ status: 'queued', request, bundle: null, candidate: null, issues: [], result: null });
      expect(await store.get(purged)).toMatchObject({ request: {}, bundle: null, purgedAt: expect.any(Date) });

      // The rebuilt table keeps its keys: the primary key, the unique request key, the decisions' foreign key.
      const { rows: constraints } = await pool.query<{ name: string }>(
        "select conname as name from pg_constraint where conrelid in ('runs'::regclass, 'decisions'::regclass, 'shadow_reports'::regclass) and contype in ('p', 'f') order by 1",
      );
      expect(constraints.map((c) => c.name)).toEqual(expect.arrayContaining(['runs_pkey', 'decisions_run_id_runs_id_fk', 'shadow_reports_run_id_runs_id_fk']));
      const again = `insert into runs (id, tenant_id, status, stage, trace_id, thread_id, builder, provider, policy) values ($1, 't1', 'queued', 'extract', 'x', 'x', 'heuristic', 'dry', '{}')`;
      await expect(pool.query(again, [full])).rejects.toThrow(/runs_pkey/);
      await pool.query('delete from runs where id = $1', [full]);
      expect((await pool.query('select 1 from decisions where run_id = $1', [full])).rowCount).toBe(0);
      const { rows: [options] } = await pool.query<{ reloptions: string[] }>("select reloptions from pg_class where relname = 'runs'");
      expect(options?.reloptions).toEqual(['fillfactor=70']);
    } finally {
      await database.close();
    }
  });
});
