/**
 * The hot path's shortcuts (src/db/run-moves.ts), against the real PostgreSQL: an insert, and a move given
 * its visit's row, return only what the database computes and rebuild the rest from what they sent; and
 * stage moves are HOT updates (no index entry written), which the runs table's indexes are laid out for.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moveRun, type MoveSpec } from '../../src/db/run-moves.ts';
import type { RunRow } from '../../src/db/schema/index.ts';
import { stageNamed } from '../../src/engine/stages.ts';
import { openVisit } from '../../src/engine/visit.ts';
import { registerExamples, submit } from '../support/pipeline.ts';
import { createTestSystem, type TestSystem } from '../support/test-system.ts';

let system: TestSystem;

beforeAll(async () => {
  system = await createTestSystem();
  await registerExamples(system);
});
afterAll(async () => system.dispose());

async function claimedExtract(): Promise<RunRow> {
  const submitted = await submit(system, { model: 'black-forest-labs/flux-schnell', prompt: 'a lighthouse, seed=7' });
  const run = await openVisit(system, stageNamed('extract'), { runId: submitted.id, attempt: submitted.attempt });
  if (!run) throw new Error('extract visit not claimed');
  return run;
}

/** The move the extract stage makes into assemble, with jsonb values that only JSON text can carry faithfully. */
function extractToAssemble(run: RunRow, base?: RunRow): MoveSpec {
  return {
    runId: run.id,
    from: ['extracting'],
    to: 'assembling',
    guard: { stage: 'extract', attempt: run.attempt },
    bumpAttempt: true,
    set: {
      stage: 'assemble',
      stageStartedAt: new Date(),
      schemaKey: 'version:test',
      schemaHash: 'hash-1',
      // A Date and an undefined inside jsonb: stored as a string and dropped, and the rebuilt row must agree.
      bundle: { prompt: 'a lighthouse', at: new Date('2026-01-02T03:04:05Z'), gone: undefined, nested: { b: 1, a: [1, 'x', null] } } as never,
      pendingReview: null,
    },
    event: { type: 'stage.completed', actor: 'worker:extract', data: { stage: 'extract' } },
    base,
  };
}

describe('an inserted run (insertRun returns only the columns it did not send)', () => {
  it('is the row a read returns, defaults included', async () => {
    const submitted = await submit(system, { model: 'black-forest-labs/flux-schnell', prompt: 'a harbour', userId: 'u-1', requestKey: 'k-1' });
    expect(submitted).toEqual(await system.store.get(submitted.id));
    expect(submitted).toMatchObject({ status: 'queued', attempt: 0, executionSeq: 1, issues: [], reviewEdits: {}, candidate: null, userId: 'u-1' });
  });
});

describe('a move given the row of its visit (MoveSpec.base)', () => {
  it('returns the row a read returns afterwards, computed columns included', async () => {
    const run = await claimedExtract();
    const moved = await moveRun(system.database.pool, extractToAssemble(run, run));
    expect(moved?.eventId).not.toBeNull();
    const read = await system.store.get(run.id);
    expect(moved?.run).toEqual(read);
    expect(read).toMatchObject({ status: 'assembling', attempt: run.attempt + 1, bundle: { at: '2026-01-02T03:04:05.000Z', nested: { a: [1, 'x', null] } } });
    expect(read?.bundle).not.toHaveProperty('gone');
    expect(read?.updatedAt.getTime()).toBeGreaterThanOrEqual(run.updatedAt.getTime());
  });

  it('is undefined, like any move, when the visit is over', async () => {
    const run = await claimedExtract();
    expect(await moveRun(system.database.pool, extractToAssemble(run, run))).toBeDefined();
    expect(await moveRun(system.database.pool, extractToAssemble(run, run))).toBeUndefined();
  });
});

describe('a move that records an execution (MoveSpec.ledger)', () => {
  const record = { step: 'execute:1', provider: 'dry', payloadHash: 'h', result: { provider: 'dry', status: 'succeeded' as const, output: 'out' } };

  it('writes the ledger row and moves the run together, and neither when the run is not at the visit', async () => {
    const run = await claimedExtract();
    const stale = await moveRun(system.database.pool, { ...extractToAssemble(run), guard: { stage: 'extract', attempt: run.attempt + 1 }, ledger: record });
    expect(stale).toBeUndefined();
    expect(await system.store.ledger.listForRun(run.id)).toHaveLength(0);
    const moved = await moveRun(system.database.pool, { ...extractToAssemble(run, run), ledger: record });
    expect(moved?.run.status).toBe('assembling');
    expect(await system.store.ledger.listForRun(run.id)).toMatchObject([{ step: 'execute:1', status: 'succeeded', result: record.result }]);
  });

  it('leaves the run where it is when the step is recorded already', async () => {
    const run = await claimedExtract();
    await system.store.ledger.begin({ runId: run.id, step: record.step, provider: record.provider, payloadHash: record.payloadHash });
    await system.store.ledger.finish(run.id, record.step, { ...record.result, output: 'first' });
    expect(await moveRun(system.database.pool, { ...extractToAssemble(run, run), ledger: record })).toBeUndefined();
    expect((await system.store.get(run.id))?.status).toBe('extracting');
    expect(await system.store.ledger.listForRun(run.id)).toMatchObject([{ result: { output: 'first' } }]);
  });
});

describe('stage moves on the runs table', () => {
  it('are heap-only (HOT) updates: no index of runs covers or filters on what a stage changes', async () => {
    const run = await claimedExtract();
    // One connection, one transaction: the per-transaction counters then count exactly these moves.
    const client = new pg.Client({ connectionString: system.config.databaseUrl });
    await client.connect();
    try {
      await client.query('begin');
      const moved = await moveRun(client as unknown as pg.Pool, extractToAssemble(run, run));
      await moveRun(client as unknown as pg.Pool, {
        runId: run.id, from: ['assembling'], to: 'building', guard: { stage: 'assemble', attempt: moved?.run.attempt ?? -1 },
        bumpAttempt: true, set: { stage: 'build', bundle: { prompt: 'a lighthouse' } as never }, base: moved?.run,
      });
      const { rows } = await client.query<{ updated: string; hot: string }>(
        "select pg_stat_get_xact_tuples_updated('runs'::regclass) as updated, pg_stat_get_xact_tuples_hot_updated('runs'::regclass) as hot",
      );
      await client.query('rollback');
      expect(rows[0]).toEqual({ updated: '2', hot: '2' });
    } finally {
      await client.end();
    }
  });
});
