/**
 * shadow_reports: one row per shadowed build (run, build visit). Written once by the shadow worker (a
 * repeated job finds its row and does nothing), read by the reports API and `vetted shadow report`.
 * Reads take the tenant; `null` (every tenant) is for the operator's CLI only.
 */
import { and, desc, eq, gte, lt, or, sql, type SQL } from 'drizzle-orm';
import type { ShadowComparison } from '../shadow/types.ts';
import type { Db } from './client.ts';
import { decodeCursor, encodeCursor, type Page } from './run-queries.ts';
import { shadowReports, type ShadowReportRow } from './schema/index.ts';

export interface ShadowReportInput {
  id: string;
  runId: string;
  runAttempt: number;
  tenantId: string;
  model: string | null;
  builder: string;
  comparison: ShadowComparison;
}

export interface ShadowReportFilters {
  /** `owner/name` (every version) or `owner/name:version`. */
  model?: string;
  /** Only reports in which V2 leaked this top-level field. */
  field?: string;
  since?: Date;
  limit: number;
  cursor?: string;
}

/** The row a report is stored as, column by column. */
function reportValues(input: ShadowReportInput) {
  const c = input.comparison;
  return {
    id: input.id,
    runId: input.runId,
    runAttempt: input.runAttempt,
    tenantId: input.tenantId,
    model: input.model,
    builder: input.builder,
    status: c.status,
    failureReason: c.failureReason,
    v2Payload: c.v2Payload,
    v3Payload: c.v3Payload,
    diff: c.diff,
    leaks: c.leaks,
    v3Leaks: c.v3Leaks,
    leakedFields: c.leakedFields,
    leakCount: c.leaks.length,
    v3LeakCount: c.v3Leaks.length,
    fieldsDiffering: c.fieldsDiffering,
  };
}

type ReportColumn = keyof ReturnType<typeof reportValues>;
const REPORT_COLUMNS: readonly ReportColumn[] = [
  'id', 'runId', 'runAttempt', 'tenantId', 'model', 'builder', 'status', 'failureReason', 'v2Payload', 'v3Payload',
  'diff', 'leaks', 'v3Leaks', 'leakedFields', 'leakCount', 'v3LeakCount', 'fieldsDiffering',
];

/**
 * The insert, prepared once per database handle (drizzle `.prepare`, one placeholder per column): every
 * shadowed run writes one row, and building this insert with drizzle each time cost about as much CPU as the
 * comparison itself (measured with `npm run bench -- --shadow 1 --cpu-prof-dir`).
 */
const insertStatements = new WeakMap<Db, ReturnType<typeof prepareInsert>>();

function prepareInsert(db: Db) {
  const placeholders = Object.fromEntries(REPORT_COLUMNS.map((column) => [column, sql.placeholder(column)]));
  return db
    .insert(shadowReports)
    .values(placeholders as unknown as typeof shadowReports.$inferInsert)
    .onConflictDoNothing({ target: [shadowReports.runId, shadowReports.runAttempt] })
    .returning({ id: shadowReports.id })
    .prepare('vetted_shadow_report_insert');
}

/** Stores a report; false when this build visit already has one (a retried or repeated job). */
export async function insertShadowReport(db: Db, input: ShadowReportInput): Promise<boolean> {
  let statement = insertStatements.get(db);
  if (!statement) {
    statement = prepareInsert(db);
    insertStatements.set(db, statement);
  }
  const rows = await statement.execute(reportValues(input));
  return rows.length > 0;
}

/** The report of one build visit, if it was written. */
export async function findShadowReport(db: Db, runId: string, runAttempt: number): Promise<ShadowReportRow | undefined> {
  const [row] = await db
    .select()
    .from(shadowReports)
    .where(and(eq(shadowReports.runId, runId), eq(shadowReports.runAttempt, runAttempt)));
  return row;
}

/** Every report of a run, newest first. */
export async function listRunShadowReports(db: Db, runId: string): Promise<ShadowReportRow[]> {
  return db.select().from(shadowReports).where(eq(shadowReports.runId, runId)).orderBy(desc(shadowReports.createdAt));
}

/** Newest first, paged by (createdAt, id) so pages never skip or repeat. */
export async function listShadowReports(db: Db, tenantId: string | null, filters: ShadowReportFilters): Promise<Page<ShadowReportRow>> {
  const conditions: (SQL | undefined)[] = [
    tenantId === null ? undefined : eq(shadowReports.tenantId, tenantId),
    filters.model ? modelCondition(filters.model) : undefined,
    filters.field ? sql`${shadowReports.leakedFields} @> array[${filters.field}]::text[]` : undefined,
    filters.since ? gte(shadowReports.createdAt, filters.since) : undefined,
  ];
  if (filters.cursor) {
    const { at, id } = decodeCursor(filters.cursor);
    conditions.push(or(lt(shadowReports.createdAt, at), and(eq(shadowReports.createdAt, at), lt(shadowReports.id, id))));
  }
  const rows = await db
    .select()
    .from(shadowReports)
    .where(and(...conditions))
    .orderBy(desc(shadowReports.createdAt), desc(shadowReports.id))
    .limit(filters.limit + 1);
  const items = rows.slice(0, filters.limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > filters.limit && last ? encodeCursor({ at: last.createdAt, id: last.id }) : null };
}

/** `owner/name` matches every version of it; `owner/name:version` only that version. */
export function modelCondition(model: string): SQL | undefined {
  if (model.includes(':')) return eq(shadowReports.model, model);
  // Model names contain `_`, a LIKE wildcard: escape it (and `%`, `\`) so the prefix is matched literally.
  const prefix = `${model.replace(/[\\%_]/g, '\\$&')}:%`;
  return or(eq(shadowReports.model, model), sql`${shadowReports.model} like ${prefix}`);
}
