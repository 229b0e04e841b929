/**
 * Shadow mode: which runs engineers want the legacy V2 builder to shadow (shadow_settings), and what each
 * shadowed run showed (shadow_reports). Reports hold example values on purpose (they are the proof of what V2
 * leaks), so nothing that feeds a builder reads this table.
 */
import { sql } from 'drizzle-orm';
import { check, doublePrecision, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { ShadowReportRow, ShadowSettingRow } from '../../shadow/shadow-rows.ts';
import type { LeakFinding, PayloadDifference, ShadowStatus } from '../../shadow/types.ts';
import { runs } from './runs.ts';
import type { SameShape } from './same-shape.ts';

export type { ShadowReportRow, ShadowSettingRow } from '../../shadow/shadow-rows.ts';

/**
 * Sample rates per tenant (model null: every model of the tenant) or per tenant and model. The most
 * specific row wins; without one, VETTED_SHADOW_SAMPLE_RATE applies.
 */
export const shadowSettings = pgTable(
  'shadow_settings',
  {
    tenantId: text().notNull(),
    /** `owner/name` (or `owner/name:version`); null for the tenant-wide rate. */
    model: text(),
    sampleRate: doublePrecision().notNull(),
    updatedBy: text().notNull(),
    updatedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    // Two partial indexes, because a unique index treats every null model as distinct.
    uniqueIndex('shadow_settings_tenant_idx').on(t.tenantId).where(sql`${t.model} is null`),
    uniqueIndex('shadow_settings_tenant_model_idx').on(t.tenantId, t.model).where(sql`${t.model} is not null`),
    check('shadow_settings_rate_check', sql`${t.sampleRate} >= 0 and ${t.sampleRate} <= 1`),
  ],
);

/** One shadowed build: V2 beside V3 for the candidate of one build-stage visit of a run. */
export const shadowReports = pgTable(
  'shadow_reports',
  {
    id: uuid().primaryKey(),
    runId: uuid()
      .notNull()
      .references(() => runs.id, { onDelete: 'cascade' }),
    /** The run's build-stage visit (runs.attempt) whose candidate was compared; a retried job finds its row. */
    runAttempt: integer().notNull(),
    tenantId: text().notNull(),
    model: text(),
    /** The builder backend both sides used (`heuristic`, `openai`). */
    builder: text().notNull(),
    status: text().$type<ShadowStatus>().notNull(),
    failureReason: text(),
    v2Payload: jsonb().$type<Record<string, unknown>>(),
    v3Payload: jsonb().$type<Record<string, unknown>>(),
    /** V2 → V3: what changes when a V2 payload becomes the V3 one. */
    diff: jsonb().$type<PayloadDifference[]>().notNull().default([]),
    leaks: jsonb().$type<LeakFinding[]>().notNull().default([]),
    /** Example values found in the V3 payload: empty, or the zero-trust promise is broken. */
    v3Leaks: jsonb().$type<LeakFinding[]>().notNull().default([]),
    /** Top-level fields with at least one V2 leak, as a column so reports filter and group by field cheaply. */
    leakedFields: text().array().notNull().default(sql`'{}'::text[]`),
    leakCount: integer().notNull().default(0),
    v3LeakCount: integer().notNull().default(0),
    fieldsDiffering: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('shadow_reports_run_attempt_idx').on(t.runId, t.runAttempt),
    index('shadow_reports_tenant_created_idx').on(t.tenantId, t.createdAt, t.id),
    index('shadow_reports_tenant_model_created_idx').on(t.tenantId, t.model, t.createdAt),
    index('shadow_reports_leaked_fields_idx').using('gin', t.leakedFields),
  ],
);

export const shadowSettingsHoldSettingRow: SameShape<typeof shadowSettings.$inferSelect, ShadowSettingRow> = true;
export const shadowReportsHoldReportRow: SameShape<typeof shadowReports.$inferSelect, ShadowReportRow> = true;
export type NewShadowReportRow = typeof shadowReports.$inferInsert;
