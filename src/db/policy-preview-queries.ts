/**
 * The policy preview's port (src/policy/preview-queries.ts) on PostgreSQL: a tenant's runs created in a window,
 * page by page (oldest first), each with what the gate reads (bundle, candidate, issues, its schema key) and the
 * reviews it actually raised (from its review.created events). Read-only: nothing here writes.
 */
import { sql } from 'drizzle-orm';
import type { PolicyPreviewQueries, PreviewRun, PreviewRunsFilter, RaisedReview } from '../policy/preview-queries.ts';
import type { Db } from './client.ts';
import { documentsFrom, documentsSql } from './run-documents.ts';

export function createPolicyPreviewQueries(db: Db): PolicyPreviewQueries {
  return {
    /** One page of the tenant's runs in the window, oldest first, after `after`. */
    async page(filter: PreviewRunsFilter): Promise<PreviewRun[]> {
      const model = filter.model
        ? filter.model.includes(':') ? sql`and r.model = ${filter.model}` : sql`and (r.model = ${filter.model} or r.model like ${`${filter.model}:%`})`
        : sql``;
      const after = filter.after ? sql`and (r.created_at, r.id) > (${filter.after.createdAt.toISOString()}::timestamptz, ${filter.after.id}::uuid)` : sql``;
      const result = await db.execute<{
        id: string; created_at: string | Date; status: string; model: string | null; schema_key: string | null;
        documents: Record<string, unknown> | null; reviews: RaisedReview[];
      }>(sql`
        select r.id, r.created_at, r.status, r.model, r.schema_key, ${documentsSql(sql`r.id`)} as documents,
          coalesce((select json_agg(json_build_object('checkpoint', e.data ->> 'checkpoint', 'reason', e.data ->> 'reason') order by e.id)
                    from run_events e where e.run_id = r.id and e.type = 'review.created'), '[]'::json) as reviews
        from runs r
        where r.tenant_id = ${filter.tenantId} and r.created_at >= ${filter.since.toISOString()}::timestamptz
          and r.created_at < ${filter.until.toISOString()}::timestamptz ${model} ${after}
        order by r.created_at, r.id
        limit ${filter.limit}`);
      return result.rows.map((row) => {
        const { bundle, candidate, issues, result: executed } = documentsFrom(row.documents);
        return {
          id: row.id, createdAt: new Date(row.created_at), status: row.status, model: row.model, schemaKey: row.schema_key,
          bundle, candidate, issues, executed: executed !== null, reviews: row.reviews,
        };
      });
    },
  };
}
