/**
 * The decision audit trail: append-only, kept forever. Rows are written with the move a decision causes, in
 * the same statement (DecisionRecord in run-moves.ts); this module reads them.
 */
import { asc, eq } from 'drizzle-orm';
import type { Db } from './client.ts';
import { decisions, type DecisionRow } from './schema/index.ts';

export type DecisionsRepository = ReturnType<typeof createDecisionsRepository>;

export function createDecisionsRepository(db: Db) {
  return {
    async listForRun(runId: string): Promise<DecisionRow[]> {
      return db.select().from(decisions).where(eq(decisions.runId, runId)).orderBy(asc(decisions.at), asc(decisions.id));
    },
  };
}
