/**
 * The idempotency ledger: one row per (run, step). A step with a row is never started again; a step whose
 * row says `started` resumes through the provider handle recorded here instead of starting a second time.
 */
import { jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { ExecutionResult } from '../../generated/contracts.ts';
import { runs } from './runs.ts';

export type ExecutionStatus = 'started' | 'succeeded' | 'failed';

export const executions = pgTable(
  'executions',
  {
    runId: uuid()
      .notNull()
      .references(() => runs.id, { onDelete: 'cascade' }),
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

export type ExecutionRow = typeof executions.$inferSelect;
