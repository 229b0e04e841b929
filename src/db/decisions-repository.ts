/** The decision audit trail: append-only, kept forever. */
import { asc, eq } from 'drizzle-orm';
import type { Db, DbExecutor } from './client.ts';
import { decisions, type DecisionRow } from './schema/index.ts';

export type NewDecision = Omit<typeof decisions.$inferInsert, 'id' | 'at'>;

export type DecisionsRepository = ReturnType<typeof createDecisionsRepository>;

export function createDecisionsRepository(db: Db) {
  return {
    async record(decision: NewDecision, executor: DbExecutor = db): Promise<DecisionRow> {
      const [row] = await executor.insert(decisions).values(decision).returning();
      if (!row) throw new Error('decision insert returned nothing');
      return row;
    },
    async listForRun(runId: string): Promise<DecisionRow[]> {
      return db.select().from(decisions).where(eq(decisions.runId, runId)).orderBy(asc(decisions.at), asc(decisions.id));
    },
  };
}
