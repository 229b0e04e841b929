/**
 * The RunStore port (src/engine/store.ts) over PostgreSQL: the truth every worker and API process shares.
 *
 * The hot path's shortcuts stay inside this file and the two it uses:
 *  - a write is ONE statement (run-moves.ts): compare-and-set, audit events, decision row and ledger record;
 *  - a write whose guard pins the stage visit the writer read returns only what PostgreSQL computes;
 *  - a write that opens a stage visit hands its row to the next stage's claim in this process
 *    (visit-handoff.ts), so that claim does not read the run again.
 */
import { and, asc, desc, eq, inArray, isNotNull, isNull, lt, lte, sql } from 'drizzle-orm';
import type { Committed, InsertResult, RunListQuery, RunStore, StageVisit, StoreWrite } from '../engine/store.ts';
import { assertNever } from '../errors.ts';
import { IN_FLIGHT_STATUSES } from '../run-states.ts';
import type pg from 'pg';
import type { Database } from './client.ts';
import { createPgLedger } from './pg-ledger.ts';
import { RUN_SELECTION, toRunRow } from './run-documents.ts';
import { insertRun, moveRun } from './run-moves.ts';
import { sealNewRun, sealWrite, type RunSealing } from './run-sealing.ts';
import { createRunStatements } from './run-statements.ts';
import { decisions, runEvents, runs, type DecisionRow, type RunEventRow, type RunRow } from './schema/index.ts';
import { VisitHandoff } from './visit-handoff.ts';

/**
 * @param sealing seals the runs' secret-role values before they are written (run-sealing.ts); without it,
 *   values are stored as they are.
 */
export function createPgRunStore(database: Database, sealing?: RunSealing): RunStore {
  const { db, pool } = database;
  const statements = createRunStatements(db);
  const handoff = new VisitHandoff();

  async function insert(...[row, event]: Parameters<RunStore['insert']>): Promise<InsertResult> {
    const inserted = await insertRun(pool, sealNewRun(sealing, row), event);
    if (inserted) return { run: inserted, created: true };
    const [existing] = await db.select(RUN_SELECTION).from(runs).where(and(eq(runs.tenantId, row.tenantId), eq(runs.requestKey, row.requestKey ?? '')));
    if (!existing) throw new Error(`run with requestKey ${row.requestKey} vanished during insert`);
    return { run: toRunRow(existing), created: false };
  }

  async function commit(unsealed: StoreWrite): Promise<Committed | undefined> {
    const write = await sealWrite(sealing, unsealed, async (runId) => (await statements.get(runId))?.schemaKey ?? null);
    if (write.pickAssignee) return assignInTurn(pool, write);
    const committed = await moveRun(pool, { ...write, base: pinnedRow(write) });
    if (committed && write.bumpAttempt) handoff.offer(committed.run);
    return committed;
  }

  return {
    insert,
    get: (runId, tenantId) => statements.get(runId, tenantId),
    list: (query) => listRuns(database, query),
    claim: (visit: StageVisit) => Promise.resolve(handoff.take(visit) ?? statements.claim(visit)),
    commit,
    async appendEvent(run, event) {
      await db.insert(runEvents).values({ runId: run.id, tenantId: run.tenantId, traceId: run.traceId, threadId: run.threadId, ...event });
    },
    async events(runId, options = {}): Promise<RunEventRow[]> {
      return db
        .select()
        .from(runEvents)
        .where(and(eq(runEvents.runId, runId), sql`${runEvents.id} > ${options.afterId ?? 0n}`))
        .orderBy(runEvents.id)
        .limit(options.limit ?? 1000);
    },
    async decisions(runId): Promise<DecisionRow[]> {
      return db.select().from(decisions).where(eq(decisions.runId, runId)).orderBy(asc(decisions.at), asc(decisions.id));
    },
    ledger: createPgLedger(database),
  };
}

/**
 * An auto-assignment holds its team's lock (a transaction-scoped advisory lock) while it picks and records, so
 * the team's assignments happen one after another and each pick reads the one before it: the statement's
 * snapshot is taken after the lock is granted. Other teams and every other move never wait on it.
 */
async function assignInTurn(pool: pg.Pool, write: StoreWrite): Promise<Committed | undefined> {
  const pick = write.pickAssignee;
  if (!pick) throw new Error('assignInTurn needs a pick');
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [`vetted_assign:${pick.tenantId}:${pick.team}`]);
    const committed = await moveRun(client, write);
    await client.query('commit');
    return committed;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * The row the writer read, when the write's guard pins exactly the visit that row is at: then the statement
 * need not send the row back (run-moves.ts, MoveSpec.base). Any other write returns the whole row.
 */
function pinnedRow(write: StoreWrite): RunRow | undefined {
  const seen = write.seen;
  if (!seen || !write.guard) return undefined;
  const pinned = write.guard.stage === seen.stage && write.guard.attempt === seen.attempt && write.from.includes(seen.status);
  return pinned ? seen : undefined;
}

async function listRuns(database: Database, query: RunListQuery): Promise<RunRow[]> {
  return (await listHotRuns(database, query)).map(toRunRow);
}

function listHotRuns({ db }: Database, query: RunListQuery) {
  switch (query.kind) {
    case 'recent':
      return db
        .select(RUN_SELECTION)
        .from(runs)
        .where(and(inArray(runs.status, [...query.statuses]), query.tenantId === undefined ? undefined : eq(runs.tenantId, query.tenantId)))
        .orderBy(desc(runs.createdAt), desc(runs.id))
        .limit(query.limit);
    case 'reviews_due':
      return db
        .select(RUN_SELECTION)
        .from(runs)
        .where(and(isNotNull(runs.pendingReviewId), eq(runs.status, 'awaiting_human'), lte(runs.reviewExpiresAt, query.dueBy)))
        .limit(query.limit);
    case 'in_flight_idle':
      return db
        .select(RUN_SELECTION)
        .from(runs)
        // completed_at and pending_review_id null: the predicate of runs_unfinished_idx, so only unfinished runs
        // are visited (no index covers status or updated_at: see the runs table).
        .where(and(isNull(runs.completedAt), isNull(runs.pendingReviewId), inArray(runs.status, [...IN_FLIGHT_STATUSES]), lt(runs.updatedAt, query.idleSince)))
        .orderBy(runs.updatedAt)
        .limit(query.limit);
    case 'parked_idle':
      return db
        .select(RUN_SELECTION)
        .from(runs)
        .where(and(isNotNull(runs.pendingReviewId), eq(runs.status, 'awaiting_human'), lt(runs.updatedAt, query.idleSince)))
        // Soonest due first (runs_review_expiry_idx): when Redis lost every bucket, those are needed first.
        .orderBy(runs.reviewExpiresAt)
        .limit(query.limit);
    case 'pending_review':
      return db
        .select(RUN_SELECTION)
        .from(runs)
        .where(and(eq(runs.pendingReviewId, query.reviewId), query.tenantId === undefined ? undefined : eq(runs.tenantId, query.tenantId)))
        .limit(1);
    default:
      return assertNever(query, 'run list query');
  }
}
