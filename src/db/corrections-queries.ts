/**
 * The corrections report's reads (src/reports/corrections-queries.ts): people's decisions on a tenant's reviews
 * in a window, each with its edits, the builder's values of the edited fields as the review showed them, and the
 * review's issues (a field the builder left unset is missing from them, not null). Served by
 * decisions_tenant_at_idx; the run gives the model label and schema key.
 */
import { sql } from 'drizzle-orm';
import type { CorrectionRow, CorrectionsQueries, CorrectionsQuery } from '../reports/corrections-queries.ts';
import type { Db } from './client.ts';
import { MODEL_LABEL } from './metrics-queries.ts';

/** Decisions a person made (not an expiry, an operator's cancel, or a reply that was asked again). */
const HUMAN_ACTIONS = sql`('approve', 'edit', 'reject', 'retry', 'change_model', 'edit_text')`;

type Row = {
  at: string | Date;
  model: string;
  schema_key: string | null;
  edits: Record<string, unknown> | null;
  before: Record<string, unknown> | null;
  issues: { path?: unknown; code?: unknown }[] | null;
};

export function createCorrectionsQueries(db: Db): CorrectionsQueries {
  return {
    async decisions(query: CorrectionsQuery, limit: number): Promise<CorrectionRow[]> {
      const result = await db.execute<Row>(sql`
        select d.at, ${MODEL_LABEL} as model, runs.schema_key, d.edits,
          (select jsonb_object_agg(k, d.review -> 'candidate' -> 'payload' -> k) from jsonb_object_keys(coalesce(d.edits, '{}'::jsonb)) k
           where coalesce(d.review -> 'candidate' -> 'payload', '{}'::jsonb) ? k) as before,
          case when d.edits is null then null else d.review -> 'issues' end as issues
        from decisions d join runs on runs.id = d.run_id
        where d.tenant_id = ${query.tenantId} and d.at >= ${query.since.toISOString()}::timestamptz and d.at < ${query.until.toISOString()}::timestamptz
          and d.action in ${HUMAN_ACTIONS} and ${modelFilter(query.model)}
        order by d.at, d.id
        limit ${limit}`);
      return result.rows.map(toCorrectionRow);
    },
  };
}

/** owner/name matches every version; owner/name:version that version only. */
function modelFilter(model: string | undefined) {
  if (model === undefined) return sql`true`;
  return model.includes(':') ? sql`runs.model = ${model}` : sql`split_part(runs.model, ':', 1) = ${model}`;
}

function toCorrectionRow(row: Row): CorrectionRow {
  const edits = row.edits && Object.keys(row.edits).length > 0 ? row.edits : null;
  return {
    at: new Date(row.at),
    model: row.model,
    schemaKey: row.schema_key,
    edits,
    before: row.before ?? {},
    issues: (row.issues ?? []).flatMap((issue) => (typeof issue.path === 'string' && typeof issue.code === 'string' ? [{ path: issue.path, code: issue.code }] : [])),
  };
}
