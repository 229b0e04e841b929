/**
 * The only module that writes runs. Every status change goes through {@link RunsRepository.transition}:
 * a compare-and-set on the current status (and any extra guard) plus one audit event, committed together
 * (one statement, see run-moves.ts).
 */
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type pg from 'pg';
import type { RunEventType, RunStatus } from '../generated/contracts.ts';
import { assertTransition } from '../run-states.ts';
import type { Db } from './client.ts';
import { insertRun, moveRun, type DecisionRecord, type MoveGuard, type MoveResult, type MoveSpec, type RunPatch } from './run-moves.ts';
import { createRunStatements } from './run-statements.ts';
import { runEvents, runs, type NewRunRow, type RunEventRow, type RunRow } from './schema/index.ts';
import { VisitHandoff, type StageVisit } from './visit-handoff.ts';

export interface EventInput {
  type: RunEventType;
  actor: string;
  data?: Record<string, unknown>;
}

export type { DecisionRecord, MoveGuard, RunPatch };

/** A move (see MoveSpec in run-moves.ts), with an event whose data may be omitted. */
export interface TransitionInput extends Omit<MoveSpec, 'event'> {
  event?: EventInput;
}

/** The moved run and the id of the audit event written with the change (null when none was asked for). */
export type TransitionResult = MoveResult;

export interface InsertResult {
  run: RunRow;
  /** False when a run with the same tenant and requestKey already existed; that run is returned. */
  created: boolean;
}

export type RunsRepository = ReturnType<typeof createRunsRepository>;

export function createRunsRepository(db: Db, pool: pg.Pool) {
  const statements = createRunStatements(db);
  const handoff = new VisitHandoff();
  return {
    /** Inserts a run and its run.created event; idempotent on (tenantId, requestKey). */
    async insert(row: NewRunRow, event: EventInput): Promise<InsertResult> {
      const inserted = await insertRun(pool, row, { type: event.type, actor: event.actor, data: event.data ?? {} });
      if (inserted) return { run: inserted, created: true };
      const [existing] = await db
        .select()
        .from(runs)
        .where(and(eq(runs.tenantId, row.tenantId), eq(runs.requestKey, row.requestKey ?? '')));
      if (!existing) throw new Error(`run with requestKey ${row.requestKey} vanished during insert`);
      return { run: existing, created: false };
    },

    async get(runId: string, tenantId?: string): Promise<RunRow | undefined> {
      return statements.get(runId, tenantId);
    },

    /**
     * Starts a stage visit and returns the run. Returns undefined when the run is no longer at that visit (a
     * stale or duplicate job). Only extract writes (queued → extracting); the later stages were already put
     * in their status by the previous stage's commit, and the active status is accepted so that a job whose
     * worker died mid-stage can be picked up again. When a move of this process opened the visit, the row it
     * returned is used instead of a read (visit-handoff.ts says why that is safe).
     */
    async claimStage(visit: StageVisit): Promise<RunRow | undefined> {
      return handoff.take(visit) ?? statements.claim(visit);
    },

    /**
     * Compare-and-set status change plus its audit event (and the decision that caused it, if any), as one
     * statement (run-moves.ts). Returns undefined when the guard failed.
     */
    async transition(input: TransitionInput): Promise<TransitionResult | undefined> {
      for (const from of input.from) if (from !== input.to) assertTransition(from, input.to);
      const spec = { ...input, event: input.event && { type: input.event.type, actor: input.event.actor, data: input.event.data ?? {} } };
      const moved = await moveRun(pool, spec);
      if (moved && input.bumpAttempt) handoff.offer(moved.run);
      return moved;
    },

    /** Appends an event without changing the run (a refused duplicate review, a retry). */
    async appendEvent(run: Pick<RunRow, 'id' | 'tenantId' | 'traceId' | 'threadId'>, event: EventInput): Promise<void> {
      await db.insert(runEvents).values(eventRow(run, event));
    },

    async listEvents(runId: string, options: { afterId?: bigint; limit?: number } = {}): Promise<RunEventRow[]> {
      const after = options.afterId ?? 0n;
      return db
        .select()
        .from(runEvents)
        .where(and(eq(runEvents.runId, runId), sql`${runEvents.id} > ${after}`))
        .orderBy(runEvents.id)
        .limit(options.limit ?? 1000);
    },

    /** The newest runs in these statuses first (what `vetted runs` shows). */
    async listByStatus(statuses: readonly RunStatus[], options: { tenantId?: string; limit?: number } = {}): Promise<RunRow[]> {
      const where = and(
        inArray(runs.status, [...statuses]),
        options.tenantId === undefined ? undefined : eq(runs.tenantId, options.tenantId),
      );
      return db.select().from(runs).where(where).orderBy(desc(runs.createdAt), desc(runs.id)).limit(options.limit ?? 100);
    },
  };
}

function eventRow(run: Pick<RunRow, 'id' | 'tenantId' | 'traceId' | 'threadId'>, event: EventInput) {
  return {
    runId: run.id,
    tenantId: run.tenantId,
    type: event.type,
    actor: event.actor,
    data: event.data ?? {},
    traceId: run.traceId,
    threadId: run.threadId,
  };
}
