/**
 * The RunStore contract (src/engine/store.ts), as one suite every implementation runs: the memory store in
 * the fast tests (test/engine/memory-store.test.ts) and the PostgreSQL store against the real server
 * (test/integration/pg-run-store.int.test.ts). Whatever the engine may rely on is asserted here.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewRunRow, RunRow, RunStore, StoreWrite } from '../../src/engine/store.ts';

export interface StoreUnderTest {
  store: RunStore;
  dispose(): Promise<void>;
}

const TENANT = 'conformance';

function newRun(overrides: Partial<NewRunRow> = {}): NewRunRow {
  const id = randomUUID();
  return {
    id, tenantId: TENANT, status: 'queued', stage: 'extract', attempt: 0, traceId: randomUUID(), threadId: id,
    builder: 'heuristic', provider: 'dry', policy: { mode: 'auto' }, request: { model: 'acme/img', prompt: 'a lighthouse' },
    ...overrides,
  };
}

const created = { type: 'run.created', actor: 'test', data: {} } as const;

/** The write that opens the next visit, as the engine's advance does. */
function advance(run: RunRow, to: RunRow['status'], stage: RunRow['stage'], extra: Partial<StoreWrite> = {}): StoreWrite {
  return {
    runId: run.id, from: [run.status], to, guard: { stage: run.stage, attempt: run.attempt }, bumpAttempt: true, seen: run,
    set: { stage, stageStartedAt: new Date() }, event: { type: 'stage.completed', actor: 'test', data: { to } }, ...extra,
  };
}

export function runStoreConformance(name: string, open: () => Promise<StoreUnderTest>): void {
  describe(`RunStore conformance: ${name}`, () => {
    let subject: StoreUnderTest;
    let store: RunStore;
    beforeAll(async () => {
      subject = await open();
      store = subject.store;
    });
    afterAll(async () => subject.dispose());

    /** A run inserted and moved into `extracting` at visit 1. */
    async function running(overrides: Partial<NewRunRow> = {}): Promise<RunRow> {
      const { run } = await store.insert(newRun(overrides), created);
      const opened = await store.commit({ runId: run.id, from: ['queued'], to: 'extracting', guard: { stage: 'extract', attempt: 0 }, set: { stageStartedAt: new Date() } });
      if (!opened) throw new Error('could not open the extract visit');
      return opened.run;
    }

    describe('insert', () => {
      it('stores the row with the column defaults and its run.created event', async () => {
        const { run, created: isNew } = await store.insert(newRun(), created);
        expect(isNew).toBe(true);
        expect(run).toMatchObject({ status: 'queued', attempt: 0, executionSeq: 1, issues: [], reviewEdits: {}, candidate: null, pendingReviewId: null, recheck: null });
        expect(run.createdAt).toBeInstanceOf(Date);
        expect(await store.get(run.id)).toEqual(run);
        expect((await store.events(run.id)).map((e) => e.type)).toEqual(['run.created']);
      });

      it('is idempotent on (tenant, requestKey): the first run comes back, and another tenant gets its own', async () => {
        const requestKey = `key-${randomUUID()}`;
        const first = await store.insert(newRun({ requestKey }), created);
        const again = await store.insert(newRun({ requestKey }), created);
        expect(again).toMatchObject({ created: false, run: { id: first.run.id } });
        expect(await store.events(first.run.id)).toHaveLength(1);
        const other = await store.insert(newRun({ requestKey, tenantId: 'other-tenant' }), created);
        expect(other.created).toBe(true);
        expect(other.run.id).not.toBe(first.run.id);
      });
    });

    describe('get and claim', () => {
      it('scopes a read to a tenant when one is given', async () => {
        const { run } = await store.insert(newRun(), created);
        expect(await store.get(run.id, TENANT)).toMatchObject({ id: run.id });
        expect(await store.get(run.id, 'someone-else')).toBeUndefined();
        expect(await store.get(randomUUID())).toBeUndefined();
      });

      it('claims exactly the visit the run is at, and nothing else', async () => {
        const run = await running();
        const moved = (await store.commit(advance(run, 'assembling', 'assemble')))!.run;
        const visit = { runId: run.id, stage: 'assemble' as const, attempt: moved.attempt, status: 'assembling' as const };
        expect(await store.claim({ ...visit, attempt: moved.attempt - 1 })).toBeUndefined();
        expect(await store.claim({ ...visit, status: 'building' })).toBeUndefined();
        expect(await store.claim(visit)).toEqual(await store.get(run.id));
      });
    });

    describe('commit', () => {
      it('applies a write whole: status, columns, counters, its event, and answers the event id', async () => {
        const run = await running();
        const committed = await store.commit(advance(run, 'assembling', 'assemble', { set: { stage: 'assemble', stageStartedAt: new Date(), schemaKey: 'k1', schemaHash: 'h1' } }));
        expect(committed?.run).toMatchObject({ status: 'assembling', stage: 'assemble', attempt: run.attempt + 1, schemaKey: 'k1', schemaHash: 'h1' });
        expect(committed!.run.updatedAt.getTime()).toBeGreaterThanOrEqual(run.updatedAt.getTime());
        const events = await store.events(run.id);
        expect(events.map((e) => e.type)).toEqual(['run.created', 'stage.completed']);
        expect(committed?.eventId).toBe(events[1]?.id);
        expect(committed?.run).toEqual(await store.get(run.id));
      });

      it('writes nothing when the status, the visit or the review does not match', async () => {
        const run = await running();
        expect(await store.commit({ ...advance(run, 'assembling', 'assemble'), from: ['building'] })).toBeUndefined();
        expect(await store.commit({ ...advance(run, 'assembling', 'assemble'), guard: { stage: 'extract', attempt: run.attempt + 1 } })).toBeUndefined();
        expect(await store.commit({ ...advance(run, 'assembling', 'assemble'), guard: { stage: 'build', attempt: run.attempt } })).toBeUndefined();
        expect(await store.commit({ runId: run.id, from: ['extracting'], to: 'failed', guard: { pendingReviewId: randomUUID() } })).toBeUndefined();
        expect(await store.commit({ ...advance(run, 'assembling', 'assemble'), runId: randomUUID() })).toBeUndefined();
        expect(await store.get(run.id)).toEqual(run);
        expect((await store.events(run.id)).map((e) => e.type)).toEqual(['run.created']);
      });

      it('of two writes racing for one visit, exactly one lands', async () => {
        const run = await running();
        const results = await Promise.all([store.commit(advance(run, 'assembling', 'assemble')), store.commit(advance(run, 'failed', 'extract'))]);
        expect(results.filter(Boolean)).toHaveLength(1);
      });

      it('stores jsonb columns as JSON: a Date inside becomes its string, undefined goes', async () => {
        const run = await running();
        const bundle = { prompt: 'p', at: new Date('2026-01-02T03:04:05Z'), gone: undefined, nested: { a: [1, null] } };
        const committed = await store.commit(advance(run, 'assembling', 'assemble', { set: { stage: 'assemble', bundle: bundle as never } }));
        const expected = { prompt: 'p', at: '2026-01-02T03:04:05.000Z', nested: { a: [1, null] } };
        expect(committed?.run.bundle).toEqual(expected);
        expect((await store.get(run.id))?.bundle).toEqual(expected);
      });

      it('replaces a document a later write sets, and clears one written empty (null, or [] issues)', async () => {
        const run = await running();
        const candidate = (prompt: string) => ({ payload: { prompt }, provenance: {}, builder: 'heuristic', confidence: 1 }) as never;
        await store.commit(advance(run, 'assembling', 'assemble', { set: { stage: 'assemble', bundle: { prompt: 'one' } as never, candidate: candidate('one') } }));
        const issues = [{ path: '/prompt', code: 'x', message: 'y', severity: 'error' }] as never;
        // A write whose guard does not pin the visit it read (a decision, an operator) returns the whole row.
        const replaced = (await store.commit({ runId: run.id, from: ['assembling'], to: 'validating', set: { candidate: candidate('two'), issues } }))!.run;
        expect(replaced).toMatchObject({ candidate: { payload: { prompt: 'two' } }, bundle: { prompt: 'one' }, issues, request: run.request });
        expect(replaced).toEqual(await store.get(run.id));
        const cleared = (await store.commit({ ...advance(replaced, 'building', 'build'), set: { stage: 'build', bundle: null, issues: [] } }))!.run;
        expect(cleared).toMatchObject({ bundle: null, issues: [], candidate: { payload: { prompt: 'two' } }, request: run.request });
        expect(await store.get(run.id)).toEqual(cleared);
        // A write that misses its guard writes no document either.
        expect(await store.commit({ runId: run.id, from: ['validating'], to: 'failed', set: { candidate: candidate('three'), bundle: { prompt: 'three' } as never } })).toBeUndefined();
        expect(await store.get(run.id)).toEqual(cleared);
      });

      it('hands out copies: changing a returned row changes nothing stored', async () => {
        const run = await running();
        const read = (await store.get(run.id))!;
        read.status = 'completed';
        read.policy.mode = 'require_human';
        expect(await store.get(run.id)).toMatchObject({ status: 'extracting', policy: { mode: 'auto' } });
      });

      it('records a decision with its write: the decision row, then its event, then the write event', async () => {
        const run = await running();
        const reviewId = randomUUID();
        const parked = (await store.commit({ runId: run.id, from: ['extracting'], to: 'awaiting_human', set: { pendingReviewId: reviewId } }))!.run;
        const decided = await store.commit({
          runId: run.id, from: ['awaiting_human'], to: 'cancelled', guard: { pendingReviewId: reviewId }, seen: parked,
          set: { pendingReviewId: null, completedAt: new Date() },
          event: { type: 'run.cancelled', actor: 'key:r1', data: {} },
          decision: { reviewId, actor: 'key:r1', action: 'reject', raw: { action: 'reject' }, parsed: { route: 'cancel' }, edits: null, override: false, review: null, event: { type: 'review.decided', actor: 'key:r1', data: { reviewId } } },
        });
        expect(decided?.run.status).toBe('cancelled');
        expect((await store.events(run.id)).map((e) => e.type).slice(-2)).toEqual(['review.decided', 'run.cancelled']);
        expect(await store.decisions(run.id)).toEqual([expect.objectContaining({ reviewId, actor: 'key:r1', action: 'reject', parsed: { route: 'cancel' }, edits: null, override: false })]);
        // The review is no longer pending: a second decision on it writes nothing.
        expect(await store.commit({ runId: run.id, from: ['awaiting_human'], to: 'cancelled', guard: { pendingReviewId: reviewId } })).toBeUndefined();
        expect(await store.decisions(run.id)).toHaveLength(1);
      });

      it("counts, with a write, the matching events about a review from before it (not the write's own)", async () => {
        const run = await running();
        const reviewId = randomUUID();
        const count = { reviewId, types: ['review.claimed', 'review.decided'] as const };
        const parked = (await store.commit({ runId: run.id, from: ['extracting'], to: 'awaiting_human', set: { pendingReviewId: reviewId } }))!;
        expect(parked.priorEvents).toBeUndefined();
        const claim = (actor: string) => ({
          runId: run.id, from: ['awaiting_human'] as const, to: 'awaiting_human' as const, guard: { pendingReviewId: reviewId }, countPrior: count,
          event: { type: 'review.claimed' as const, actor, data: { reviewId } },
        });
        expect((await store.commit(claim('key:a')))?.priorEvents).toBe(0);
        await store.appendEvent(run, { type: 'review.claimed', actor: 'key:x', data: { reviewId: randomUUID() } });
        await store.appendEvent(run, { type: 'review.reminded', actor: 'system', data: { reviewId } });
        expect((await store.commit(claim('key:b')))?.priorEvents).toBe(1);
        const decided = await store.commit({
          runId: run.id, from: ['awaiting_human'], to: 'cancelled', guard: { pendingReviewId: reviewId }, seen: parked.run, countPrior: count,
          set: { pendingReviewId: null, completedAt: new Date() }, event: { type: 'run.cancelled', actor: 'key:b', data: {} },
          decision: { reviewId, actor: 'key:b', action: 'reject', raw: {}, parsed: { route: 'cancel' }, edits: null, override: false, review: null, event: { type: 'review.decided', actor: 'key:b', data: { reviewId } } },
        });
        expect(decided?.priorEvents).toBe(2);
      });

      it('records a ledger step with its write only while the step is new; a recorded step makes the write miss', async () => {
        const run = await running();
        const record = { step: 'execute:1', provider: 'dry', payloadHash: 'h', result: { provider: 'dry', status: 'succeeded' as const, output: 'x' } };
        const done = await store.commit({ runId: run.id, from: ['extracting'], to: 'completed', guard: { attempt: run.attempt }, ledger: record, seen: run });
        expect(done?.run.status).toBe('completed');
        expect(await store.ledger.get(run.id, 'execute:1')).toMatchObject({ status: 'succeeded', provider: 'dry', result: record.result });

        const other = await running();
        await store.ledger.begin({ runId: other.id, step: 'execute:1', provider: 'dry', payloadHash: 'h' });
        expect(await store.commit({ runId: other.id, from: ['extracting'], to: 'completed', ledger: record })).toBeUndefined();
        expect((await store.get(other.id))?.status).toBe('extracting');
      });
    });

    describe('the ledger', () => {
      it('has one winner per step; release frees only a started step without a handle', async () => {
        const run = await running();
        const step = { runId: run.id, step: 'execute:1', provider: 'dry', payloadHash: 'h' };
        expect(await store.ledger.begin(step)).toMatchObject({ fresh: true, row: { status: 'started' } });
        expect(await store.ledger.begin(step)).toMatchObject({ fresh: false, row: { status: 'started' } });
        await store.ledger.release(run.id, 'execute:1');
        expect(await store.ledger.get(run.id, 'execute:1')).toBeUndefined();
        await store.ledger.begin(step);
        await store.ledger.recordHandle(run.id, 'execute:1', 'pred-1');
        await store.ledger.release(run.id, 'execute:1');
        expect(await store.ledger.get(run.id, 'execute:1')).toMatchObject({ predictionId: 'pred-1', status: 'started' });
        await store.ledger.finish(run.id, 'execute:1', { provider: 'dry', status: 'failed', output: null, error: 'no' });
        expect(await store.ledger.listForRun(run.id)).toEqual([expect.objectContaining({ step: 'execute:1', status: 'failed', predictionId: 'pred-1' })]);
      });

      it('begins a step for a visit only while the run is executing at that visit', async () => {
        const run = await running();
        const executing = (await store.commit(advance(run, 'executing', 'execute')))!.run;
        const step = { runId: run.id, step: 'execute:1', provider: 'dry', payloadHash: 'h' };
        expect(await store.ledger.begin({ ...step, runAttempt: executing.attempt - 1 })).toBeUndefined();
        expect(await store.ledger.listForRun(run.id)).toEqual([]);
        expect(await store.ledger.begin({ ...step, runAttempt: executing.attempt })).toMatchObject({ fresh: true });
      });
    });

    describe('list', () => {
      it('recent: in the statuses asked for, newest first, for one tenant or all, up to the limit', async () => {
        const tenantId = `list-${randomUUID().slice(0, 8)}`;
        const older = (await store.insert(newRun({ tenantId }), created)).run;
        await new Promise((resolve) => setTimeout(resolve, 5));
        const newer = (await store.insert(newRun({ tenantId }), created)).run;
        const listed = await store.list({ kind: 'recent', statuses: ['queued'], tenantId, limit: 10 });
        expect(listed.map((r) => r.id)).toEqual([newer.id, older.id]);
        expect(await store.list({ kind: 'recent', statuses: ['queued'], tenantId, limit: 1 })).toHaveLength(1);
        expect(await store.list({ kind: 'recent', statuses: ['failed'], tenantId, limit: 10 })).toEqual([]);
      });

      it('reviews_due and parked_idle find parked runs; in_flight_idle finds stage runs untouched since a time', async () => {
        const run = await running();
        const reviewId = randomUUID();
        const expiresAt = new Date(Date.now() + 60_000);
        await store.commit({ runId: run.id, from: ['extracting'], to: 'awaiting_human', set: { pendingReviewId: reviewId, reviewExpiresAt: expiresAt, parkedAt: new Date() } });
        const stuck = await running();
        const future = new Date(Date.now() + 3_600_000);
        const ids = async (query: Parameters<RunStore['list']>[0]) => (await store.list(query)).map((r) => r.id);
        expect(await ids({ kind: 'reviews_due', dueBy: new Date(expiresAt.getTime() + 1), limit: 1000 })).toContain(run.id);
        expect(await ids({ kind: 'reviews_due', dueBy: new Date(expiresAt.getTime() - 1000), limit: 1000 })).not.toContain(run.id);
        expect(await ids({ kind: 'parked_idle', idleSince: future, limit: 1000 })).toContain(run.id);
        expect(await ids({ kind: 'parked_idle', idleSince: new Date(0), limit: 1000 })).not.toContain(run.id);
        const inFlight = await ids({ kind: 'in_flight_idle', idleSince: future, limit: 1000 });
        expect(inFlight).toContain(stuck.id);
        expect(inFlight).not.toContain(run.id);
      });
    });

    describe('events', () => {
      it('pages after an id, in order; appendEvent adds one without changing the run', async () => {
        const run = await running();
        await store.appendEvent(run, { type: 'review.duplicate_refused', actor: 'system', data: { n: 1 } });
        await store.appendEvent(run, { type: 'review.duplicate_refused', actor: 'system', data: { n: 2 } });
        const all = await store.events(run.id);
        expect(all.map((e) => e.type)).toEqual(['run.created', 'review.duplicate_refused', 'review.duplicate_refused']);
        expect(all.map((e) => e.id)).toEqual([...all.map((e) => e.id)].sort((a, b) => (a < b ? -1 : 1)));
        expect((await store.events(run.id, { afterId: all[0]!.id, limit: 1 })).map((e) => e.data)).toEqual([{ n: 1 }]);
        expect(all[1]).toMatchObject({ runId: run.id, tenantId: TENANT, traceId: run.traceId, threadId: run.threadId, actor: 'system' });
        expect(await store.get(run.id)).toEqual(run);
      });
    });
  });
}
