/**
 * The idempotency ledger: one row per (run, step). A step with a row is never started again; a step whose
 * row says `started` resumes through the provider handle recorded here instead of starting a second time.
 */
import { jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { ExecutionResult } from '../../generated/contracts.ts';
import type { ExecutionRow, ExecutionStatus } from '../../engine/run-rows.ts';
import type { SameShape } from './same-shape.ts';

export type { ExecutionRow, ExecutionStatus } from '../../engine/run-rows.ts';

export const executions = pgTable(
  'executions',
  {
    /**
     * The run's id, without a foreign key: every ledger write that can create a row checks the run in the
     * same statement (the visit guard in pg-ledger.ts), and the key's per-row check was a
     * measurable share of the execute stage. The ledger outlives any cleanup of runs, as evidence.
     */
    runId: uuid().notNull(),
    step: text().notNull(),
    status: text().$type<ExecutionStatus>().notNull(),
    provider: text().notNull(),
    payloadHash: text().notNull(),
    predictionId: text(),
    result: jsonb().$type<ExecutionResult>(),
    startedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    finishedAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (t) => [primaryKey({ columns: [t.runId, t.step] })],
);

/** The table holds the engine's ExecutionRow exactly. */
export const executionsHoldExecutionRow: SameShape<typeof executions.$inferSelect, ExecutionRow> = true;
