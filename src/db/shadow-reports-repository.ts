/**
 * shadow_reports: one row per shadowed build (run, build visit). Written once by the shadow worker (a
 * repeated job finds its row and does nothing), read by the reports API and `vetted shadow report`.
 * Reads take the tenant; `null` (every tenant) is for the operator's CLI only.
 */
import { and, desc, eq, gte, lt, or, sql, type SQL } from 'drizzle-orm';
import type { LookBack } from '../shadow/since.ts';
import { buildSummary, INLINE_MODEL, type FieldCounts, type ModelCounts } from '../shadow/summary.ts';
import type { ShadowSummary } from '../shadow/types.ts';
import type { LeakMatch } from '../stages/leak-firewall.ts';
import type { Db } from './client.ts';
import { decodeCursor, encodeCursor, type Page } from './run-queries.ts';
import { shadowReports } from './schema/index.ts';
import type { ShadowReportInput, ShadowReportRow } from '../shadow/shadow-rows.ts';

export type { ShadowReportInput } from '../shadow/shadow-rows.ts';

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
async function insertShadowReport(db: Db, input: ShadowReportInput): Promise<boolean> {
  let statement = insertStatements.get(db);
  if (!statement) {
    statement = prepareInsert(db);
    insertStatements.set(db, statement);
  }
  const rows = await statement.execute(reportValues(input));
  return rows.length > 0;
}

/** The report of one build visit, if it was written. */
async function findShadowReport(db: Db, runId: string, runAttempt: number): Promise<ShadowReportRow | undefined> {
  const [row] = await db
    .select()
    .from(shadowReports)
    .where(and(eq(shadowReports.runId, runId), eq(shadowReports.runAttempt, runAttempt)));
  return row;
}

/** Every report of a run, newest first. */
async function listRunShadowReports(db: Db, runId: string): Promise<ShadowReportRow[]> {
  return db.select().from(shadowReports).where(eq(shadowReports.runId, runId)).orderBy(desc(shadowReports.createdAt));
}

/** Newest first, paged by (createdAt, id) so pages never skip or repeat. */
async function listShadowReports(db: Db, tenantId: string | null, filters: ShadowReportFilters): Promise<Page<ShadowReportRow>> {
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

/* Leak statistics: counted in PostgreSQL (two grouped queries, whatever the number of reports) and finished
   by buildSummary, the same function replay uses. */

export interface SummaryScope {
  /** null: every tenant (the operator's CLI). */
  tenantId: string | null;
  since: Date;
  model?: string;
}

/** Leak statistics by model and by field since `scope.since`. */
async function summarizeShadowReports(db: Db, scope: SummaryScope): Promise<ShadowSummary> {
  const where = scopeCondition(scope);
  const [models, fields] = await Promise.all([modelCounts(db, where), fieldCounts(db, where)]);
  return buildSummary(scope.since, models, fields);
}

/** One summary per window, each ending now. */
async function summarizeWindows(
  db: Db,
  scope: Omit<SummaryScope, 'since'>,
  windows: readonly LookBack[],
  now: Date,
): Promise<{ window: string; summary: ShadowSummary }[]> {
  return Promise.all(
    windows.map(async (window) => ({
      window: window.name,
      summary: await summarizeShadowReports(db, { ...scope, since: new Date(now.getTime() - window.ms) }),
    })),
  );
}

const r = shadowReports;
const groupOf = sql`coalesce(split_part(${r.model}, ':', 1), ${INLINE_MODEL})`;

function scopeCondition(scope: SummaryScope): SQL {
  const parts: SQL[] = [sql`${r.createdAt} >= ${scope.since}`];
  if (scope.tenantId !== null) parts.push(sql`${r.tenantId} = ${scope.tenantId}`);
  const model = scope.model ? modelCondition(scope.model) : undefined;
  if (model) parts.push(model);
  return sql.join(parts, sql` and `);
}

async function modelCounts(db: Db, where: SQL): Promise<ModelCounts[]> {
  const result = await db.execute<{ model: string; reports: number; failed: number; with_leaks: number; v2_leaks: number; v3_leaks: number; fields_differing: number }>(sql`
    select ${groupOf} as model,
      count(*)::int as reports,
      count(*) filter (where ${r.status} = 'failed')::int as failed,
      count(*) filter (where ${r.status} = 'ok' and ${r.leakCount} > 0)::int as with_leaks,
      coalesce(sum(${r.leakCount}), 0)::int as v2_leaks,
      coalesce(sum(${r.v3LeakCount}), 0)::int as v3_leaks,
      coalesce(sum(${r.fieldsDiffering}), 0)::int as fields_differing
    from ${r} where ${where} group by 1`);
  return result.rows.map((row) => ({
    model: row.model,
    reports: row.reports,
    failed: row.failed,
    withLeaks: row.with_leaks,
    v2Leaks: row.v2_leaks,
    v3Leaks: row.v3_leaks,
    fieldsDiffering: row.fields_differing,
  }));
}

/** Per (model, field): in how many reports it leaked, how it matched, and the latest example value seen. */
async function fieldCounts(db: Db, where: SQL): Promise<FieldCounts[]> {
  const result = await db.execute<{ model: string; field: string; leaked: number; matches: LeakMatch[]; example_value: string | number | null }>(sql`
    select ${groupOf} as model,
      replace(replace(split_part(leak ->> 'path', '/', 2), '~1', '/'), '~0', '~') as field,
      count(distinct ${r.id})::int as leaked,
      array_agg(distinct leak ->> 'match') as matches,
      (array_agg(leak -> 'exampleValue' order by ${r.createdAt} desc))[1] as example_value
    from ${r} cross join lateral jsonb_array_elements(${r.leaks}) as leak
    where ${where} and ${r.status} = 'ok'
    group by 1, 2`);
  return result.rows.map((row) => ({ model: row.model, field: row.field, leaked: row.leaked, matches: row.matches, exampleValue: row.example_value }));
}

export type ShadowReportsRepository = ReturnType<typeof createShadowReportsRepository>;

/** Shadow reports, bound to one database: written by the shadow job, read by the API and the CLI. */
export function createShadowReportsRepository(db: Db) {
  return {
    insert: (input: ShadowReportInput) => insertShadowReport(db, input),
    find: (runId: string, runAttempt: number) => findShadowReport(db, runId, runAttempt),
    listForRun: (runId: string) => listRunShadowReports(db, runId),
    list: (tenantId: string | null, filters: ShadowReportFilters) => listShadowReports(db, tenantId, filters),
    summarize: (scope: SummaryScope) => summarizeShadowReports(db, scope),
    summarizeWindows: (scope: Omit<SummaryScope, 'since'>, windows: readonly LookBack[], now: Date) => summarizeWindows(db, scope, windows, now),
  };
}
