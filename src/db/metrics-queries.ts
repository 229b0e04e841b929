/**
 * The counts /metrics reports that must agree across processes, read from PostgreSQL at scrape time:
 * runs by status, and the HITL and auto-pass rates over the runs that ended recently.
 */
import { sql } from 'drizzle-orm';
import type { Db } from './client.ts';

/** The window the rates are computed over. */
export const RATE_WINDOW = '1 hour';

/** A run was parked at least once when its audit trail has a review.created event (found through its run_id index). */
const WAS_PARKED = sql`exists (select 1 from run_events e where e.run_id = runs.id and e.type = 'review.created')`;

export type MetricsQueries = ReturnType<typeof createMetricsQueries>;

export function createMetricsQueries(db: Db) {
  /** Over the runs that ended in the window (every end sets completed_at), found through runs_completed_idx. */
  async function ratio(numerator: ReturnType<typeof sql>, population: ReturnType<typeof sql>): Promise<number> {
    const result = await db.execute<{ hit: string; total: string }>(sql`
      select count(*) filter (where ${numerator})::text as hit, count(*)::text as total
      from runs where ${population} and completed_at > now() - ${RATE_WINDOW}::interval`);
    const row = result.rows[0];
    const total = Number(row?.total ?? 0);
    return total === 0 ? 0 : Number(row?.hit ?? 0) / total;
  }

  return {
    async runsByStatus(): Promise<{ status: string; count: number }[]> {
      const rows = await db.execute<{ status: string; n: string }>(sql`select status, count(*)::text as n from runs group by status`);
      return rows.rows.map((row) => ({ status: row.status, count: Number(row.n) }));
    },
    /** Share of runs that ended in the window and were parked for a person at least once. */
    hitlRate: () => ratio(WAS_PARKED, sql`status in ('completed', 'failed', 'cancelled', 'expired')`),
    /** Share of runs completed in the window that never needed a person. */
    autoPassRate: () => ratio(sql`not ${WAS_PARKED}`, sql`status = 'completed'`),
  };
}
