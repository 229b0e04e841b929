/**
 * The reads every stage of every run makes, prepared once per process (drizzle `.prepare`), so neither the
 * query builder nor PostgreSQL's planner runs per job. The writes are in run-moves.ts.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { runs, type RunRow } from './schema/index.ts';

export function createRunStatements(db: Db) {
  const claimVisit = db
    .select()
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

  // Only extract changes the status when it starts (queued → extracting); later stages were moved to their
  // status by the previous stage's commit, so starting them is a read.
  const claimExtract = db
    .update(runs)
    .set({ status: 'extracting', stageStartedAt: sql`now()`, updatedAt: sql`now()` })
    .where(
      and(
        eq(runs.id, sql.placeholder('id')),
        eq(runs.stage, 'extract'),
        eq(runs.attempt, sql.placeholder('attempt')),
        inArray(runs.status, ['queued', 'extracting']),
      ),
    )
    .returning()
    .prepare('vetted_claim_extract');

  const getById = db.select().from(runs).where(eq(runs.id, sql.placeholder('id'))).prepare('vetted_run_by_id');
  const getScoped = db
    .select()
    .from(runs)
    .where(and(eq(runs.id, sql.placeholder('id')), eq(runs.tenantId, sql.placeholder('tenantId'))))
    .prepare('vetted_run_by_id_scoped');

  return {
    async claim(input: { runId: string; stage: RunRow['stage']; attempt: number; status: RunRow['status'] }): Promise<RunRow | undefined> {
      const rows =
        input.stage === 'extract'
          ? await claimExtract.execute({ id: input.runId, attempt: input.attempt })
          : await claimVisit.execute({ id: input.runId, stage: input.stage, attempt: input.attempt, status: input.status });
      return rows[0];
    },

    async get(runId: string, tenantId?: string): Promise<RunRow | undefined> {
      const rows = tenantId === undefined ? await getById.execute({ id: runId }) : await getScoped.execute({ id: runId, tenantId });
      return rows[0];
    },

  };
}
