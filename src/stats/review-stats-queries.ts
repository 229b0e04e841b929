/**
 * The stats room's port: the review queue's raw counts, per tenant and checkpoint (reviews of runs) or task type
 * (tasks). PostgreSQL answers (src/db/review-stats-queries.ts); review-stats.ts turns them into the figures.
 */

export interface DepthRow {
  tenantId: string;
  /** A checkpoint (reviews) or a task type (tasks). */
  key: string;
  pending: number;
  oldest: Date | null;
}

export interface DecisionRow {
  tenantId: string;
  key: string;
  decisions: number;
  p50Seconds: number | null;
  p90Seconds: number | null;
}

export interface TaskShareRow {
  tenantId: string;
  key: string;
  submitted: number;
  autoApproved: number;
}

export interface ReviewStatsQueries {
  /** Pending reviews of runs per tenant and checkpoint. */
  reviewDepth(tenantId?: string): Promise<DepthRow[]>;
  /** People's decisions on reviews in the last `minutes`, per tenant and checkpoint, with the time each took. */
  reviewDecisions(minutes: number, tenantId?: string): Promise<DecisionRow[]>;
  /** Pending review tasks per tenant and task type. */
  taskDepth(tenantId?: string): Promise<DepthRow[]>;
  /** Tasks people reviewed in the last `minutes`, per tenant and task type, with the time each took. */
  taskDecisions(minutes: number, tenantId?: string): Promise<DecisionRow[]>;
  /** Tasks submitted in the last `minutes` and how many of them the routing policy approved at once. */
  taskAutoApproval(minutes: number, tenantId?: string): Promise<TaskShareRow[]>;
}
