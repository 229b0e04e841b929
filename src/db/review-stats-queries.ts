/**
 * The review queue's figures per tenant and checkpoint (runs) and per tenant and task type (tasks), read from
 * PostgreSQL so every process reports the same: how many wait and since when, how many decisions in a window,
 * how long a decision took (median and 90th percentile), and the share of tasks approved by policy (the review
 * queue's metrics). `vetted stats` prints them; /metrics serves them as gauges (src/stats/review-stats.ts).
 */
import { sql } from 'drizzle-orm';
import type { DecisionRow, DepthRow, ReviewStatsQueries, TaskShareRow } from '../stats/review-stats-queries.ts';
import type { Db } from './client.ts';

/** Decisions a person made (not the system's expiry or an operator's cancel, nor a reply that was asked again). */
const HUMAN_ACTIONS = sql`('approve', 'edit', 'reject', 'retry', 'change_model', 'edit_text')`;


export function createReviewStatsQueries(db: Db): ReviewStatsQueries {
  const tenantFilter = (column: ReturnType<typeof sql>, tenantId: string | undefined) => (tenantId === undefined ? sql`true` : sql`${column} = ${tenantId}`);
  const interval = (minutes: number) => sql`${`${minutes} minutes`}::interval`;
  const asDate = (value: unknown) => (value === null || value === undefined ? null : new Date(String(value)));
  const asNumber = (value: unknown) => (value === null || value === undefined ? null : Number(value));

  return {
    /** Pending reviews per tenant and checkpoint (served by the partial index on pending_review_id). */
    async reviewDepth(tenantId?: string): Promise<DepthRow[]> {
      const result = await db.execute<{ tenant_id: string; key: string; n: string; oldest: string | null }>(sql`
        select tenant_id, pending_review ->> 'checkpoint' as key, count(*)::text as n, min(parked_at)::text as oldest
        from runs where pending_review_id is not null and status = 'awaiting_human' and ${tenantFilter(sql`tenant_id`, tenantId)}
        group by 1, 2`);
      return result.rows.map((row) => ({ tenantId: row.tenant_id, key: row.key, pending: Number(row.n), oldest: asDate(row.oldest) }));
    },

    /** People's decisions on reviews in the last `minutes`, per tenant and checkpoint, with the time each took. */
    async reviewDecisions(minutes: number, tenantId?: string): Promise<DecisionRow[]> {
      const result = await db.execute<{ tenant_id: string; key: string; n: string; p50: string | null; p90: string | null }>(sql`
        with recent as (
          select tenant_id, review ->> 'checkpoint' as key, extract(epoch from at - (review ->> 'createdAt')::timestamptz) as seconds
          from decisions
          where at > now() - ${interval(minutes)} and action in ${HUMAN_ACTIONS} and review is not null and ${tenantFilter(sql`tenant_id`, tenantId)}
        )
        select tenant_id, key, count(*)::text as n,
          percentile_cont(0.5) within group (order by seconds)::text as p50, percentile_cont(0.9) within group (order by seconds)::text as p90
        from recent group by 1, 2`);
      return result.rows.map((row) => ({ tenantId: row.tenant_id, key: row.key, decisions: Number(row.n), p50Seconds: asNumber(row.p50), p90Seconds: asNumber(row.p90) }));
    },

    /** Pending tasks per tenant and task type. */
    async taskDepth(tenantId?: string): Promise<DepthRow[]> {
      const result = await db.execute<{ tenant_id: string; key: string; n: string; oldest: string | null }>(sql`
        select tenant_id, task_type as key, count(*)::text as n, min(submitted_at)::text as oldest
        from tasks where status = 'pending' and ${tenantFilter(sql`tenant_id`, tenantId)} group by 1, 2`);
      return result.rows.map((row) => ({ tenantId: row.tenant_id, key: row.key, pending: Number(row.n), oldest: asDate(row.oldest) }));
    },

    /** Tasks people reviewed in the last `minutes` (not the policy's approvals), with the time each waited. */
    async taskDecisions(minutes: number, tenantId?: string): Promise<DecisionRow[]> {
      const result = await db.execute<{ tenant_id: string; key: string; n: string; p50: string | null; p90: string | null }>(sql`
        with recent as (
          select tenant_id, task_type as key, extract(epoch from reviewed_at - submitted_at) as seconds
          from tasks where reviewed_at > now() - ${interval(minutes)} and routing = 'human_review' and ${tenantFilter(sql`tenant_id`, tenantId)}
        )
        select tenant_id, key, count(*)::text as n,
          percentile_cont(0.5) within group (order by seconds)::text as p50, percentile_cont(0.9) within group (order by seconds)::text as p90
        from recent group by 1, 2`);
      return result.rows.map((row) => ({ tenantId: row.tenant_id, key: row.key, decisions: Number(row.n), p50Seconds: asNumber(row.p50), p90Seconds: asNumber(row.p90) }));
    },

    /** Tasks submitted in the last `minutes`, and how many of them the routing policy approved at once. */
    async taskAutoApproval(minutes: number, tenantId?: string): Promise<TaskShareRow[]> {
      const result = await db.execute<{ tenant_id: string; key: string; n: string; auto: string }>(sql`
        select tenant_id, task_type as key, count(*)::text as n, count(*) filter (where routing = 'auto_approved')::text as auto
        from tasks where submitted_at > now() - ${interval(minutes)} and ${tenantFilter(sql`tenant_id`, tenantId)} group by 1, 2`);
      return result.rows.map((row) => ({ tenantId: row.tenant_id, key: row.key, submitted: Number(row.n), autoApproved: Number(row.auto) }));
    },
  };
}
