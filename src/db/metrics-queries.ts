/**
 * The counts /metrics reports that must agree across processes, read from PostgreSQL at scrape time, per
 * tenant and model: runs by status, the HITL and auto-pass rates over the runs that ended recently, and the
 * pending reviews with the age of the oldest, per checkpoint.
 */
import { sql } from 'drizzle-orm';
import { RATE_WINDOW, type MetricsQueries, type PendingReviewStats, type RunRates, type TenantModel } from '../observability/scrape-queries.ts';
import type { Db } from './client.ts';

/** A run was parked at least once when its audit trail has a review.created event (found through its run_id index). */
const WAS_PARKED = sql`exists (select 1 from run_events e where e.run_id = runs.id and e.type = 'review.created')`;

/**
 * `owner/name` without the version, `unknown` before extract, and `inline` for a model outside the tenant's
 * catalog (observability/metrics.ts modelLabel): a caller-chosen name never becomes a label of its own.
 */
export const MODEL_LABEL = sql`case
  when runs.model is null then 'unknown'
  when exists (select 1 from models m where m.ref = runs.model and m.tenant_id in (runs.tenant_id, '*')) then split_part(runs.model, ':', 1)
  else 'inline' end`;


export function createMetricsQueries(db: Db): MetricsQueries {
  return {
    async runsByStatus(): Promise<(TenantModel & { status: string; count: number })[]> {
      const rows = await db.execute<{ tenant_id: string; model: string; status: string; n: string }>(
        sql`select tenant_id, ${MODEL_LABEL} as model, status, count(*)::text as n from runs group by 1, 2, 3`,
      );
      return rows.rows.map((row) => ({ tenantId: row.tenant_id, model: row.model, status: row.status, count: Number(row.n) }));
    },
    /** Over the runs that ended in the window (every end sets completed_at), found through runs_completed_idx. */
    async rates(): Promise<RunRates[]> {
      const rows = await db.execute<{ tenant_id: string; model: string; ended: string; ended_parked: string; completed: string; completed_auto: string }>(sql`
        select tenant_id, ${MODEL_LABEL} as model,
          count(*)::text as ended,
          count(*) filter (where parked)::text as ended_parked,
          count(*) filter (where status = 'completed')::text as completed,
          count(*) filter (where status = 'completed' and not parked)::text as completed_auto
        from (select tenant_id, model, status, ${WAS_PARKED} as parked from runs
              where completed_at > now() - ${RATE_WINDOW}::interval
                and status in ('completed', 'failed', 'cancelled', 'expired')) runs
        group by 1, 2`);
      const share = (hit: string, total: string) => (Number(total) === 0 ? 0 : Number(hit) / Number(total));
      return rows.rows.map((row) => ({
        tenantId: row.tenant_id,
        model: row.model,
        hitlRate: share(row.ended_parked, row.ended),
        autoPassRate: share(row.completed_auto, row.completed),
      }));
    },
    /** Reviews waiting now, per checkpoint, and how long the oldest has waited (runs_tenant_parked_idx). */
    async pendingReviews(): Promise<PendingReviewStats[]> {
      const rows = await db.execute<{ tenant_id: string; model: string; checkpoint: string; n: string; oldest: string }>(sql`
        select tenant_id, ${MODEL_LABEL} as model, coalesce(pending_review ->> 'checkpoint', 'unknown') as checkpoint,
          count(*)::text as n, extract(epoch from now() - min(parked_at))::text as oldest
        from runs where pending_review_id is not null group by 1, 2, 3`);
      return rows.rows.map((row) => ({
        tenantId: row.tenant_id, model: row.model, checkpoint: row.checkpoint, count: Number(row.n), oldestSeconds: Math.max(0, Number(row.oldest)),
      }));
    },
  };
}
