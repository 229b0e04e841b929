/**
 * The reads every stage of every run makes, prepared once per process (drizzle `.prepare`), so neither the
 * query builder nor PostgreSQL's planner runs per job. Each read takes the run's documents with its row
 * (run-documents.ts). The writes are in run-moves.ts.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { StageVisit } from '../engine/store.ts';
import type { Db } from './client.ts';
import { RUN_SELECTION, toRunRow } from './run-documents.ts';
import { runs, type RunRow } from './schema/index.ts';

export function createRunStatements(db: Db) {
  const claimVisit = db
    .select(RUN_SELECTION)
    .from(runs)
    .where(
      and(
        eq(runs.id, sql.placeholder('id')),
        eq(runs.stage, sql.placeholder('stage')),
        eq(runs.attempt, sql.placeholder('attempt')),
        eq(runs.status, sql.placeholder('status')),
      ),
    )
    .prepare('vetted_claim_visit');

  const getById = db.select(RUN_SELECTION).from(runs).where(eq(runs.id, sql.placeholder('id'))).prepare('vetted_run_by_id');
  const getScoped = db
    .select(RUN_SELECTION)
    .from(runs)
    .where(and(eq(runs.id, sql.placeholder('id')), eq(runs.tenantId, sql.placeholder('tenantId'))))
    .prepare('vetted_run_by_id_scoped');

  return {
    /** The run at exactly this visit (a read: the move that opened the visit already set its status). */
    async claim(visit: StageVisit): Promise<RunRow | undefined> {
      const rows = await claimVisit.execute({ id: visit.runId, stage: visit.stage, attempt: visit.attempt, status: visit.status });
      return rows[0] && toRunRow(rows[0]);
    },

    async get(runId: string, tenantId?: string): Promise<RunRow | undefined> {
      const rows = tenantId === undefined ? await getById.execute({ id: runId }) : await getScoped.execute({ id: runId, tenantId });
      return rows[0] && toRunRow(rows[0]);
    },
  };
}
