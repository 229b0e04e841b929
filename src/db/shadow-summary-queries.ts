/**
 * Leak statistics over shadow_reports, counted in PostgreSQL (two grouped queries, whatever the number of
 * reports) and finished by buildSummary, the same function replay uses.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { LeakMatch } from '../stages/leak-firewall.ts';
import type { LookBack } from '../shadow/since.ts';
import { buildSummary, INLINE_MODEL, type FieldCounts, type ModelCounts } from '../shadow/summary.ts';
import type { ShadowSummary } from '../shadow/types.ts';
import type { Db } from './client.ts';
import { modelCondition } from './shadow-reports-repository.ts';
import { shadowReports } from './schema/index.ts';

export interface SummaryScope {
  /** null: every tenant (the operator's CLI). */
  tenantId: string | null;
  since: Date;
  model?: string;
}

/** The windows GET /api/shadow/summary reports when the caller names none. */
export const DEFAULT_WINDOWS: readonly LookBack[] = [
  { name: '1h', ms: 3_600_000 },
  { name: '24h', ms: 86_400_000 },
  { name: '7d', ms: 7 * 86_400_000 },
];

/** Leak statistics by model and by field since `scope.since`. */
export async function summarizeShadowReports(db: Db, scope: SummaryScope): Promise<ShadowSummary> {
  const where = scopeCondition(scope);
  const [models, fields] = await Promise.all([modelCounts(db, where), fieldCounts(db, where)]);
  return buildSummary(scope.since, models, fields);
}

/** One summary per window, each ending now. */
export async function summarizeWindows(
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
