/**
 * The review queue's figures, per tenant and checkpoint for reviews of runs and per
 * tenant and task type for review tasks: pending depth, the oldest wait, decisions per minute, time to decision
 * (median, 90th percentile), and the share of tasks the routing policy approved at once. One computation for
 * both places that show them: `vetted stats` and the /metrics gauges (observability/review-gauges.ts).
 */
import type { DecisionRow, DepthRow, ReviewStatsQueries, TaskShareRow } from './review-stats-queries.ts';

export interface StatsOptions {
  /** Only this tenant (default: every tenant). */
  tenantId?: string;
  /** The window for decisions per minute, time to decision and the auto-approved share. */
  windowMinutes: number;
}

interface CommonStats {
  tenant: string;
  pending: number;
  /** Seconds the oldest pending one has waited; 0 when none waits. */
  oldestAgeSeconds: number;
  decisionsPerMinute: number;
  decisions: number;
  timeToDecisionP50Seconds: number | null;
  timeToDecisionP90Seconds: number | null;
}

export interface ReviewGroupStats extends CommonStats {
  checkpoint: string;
}

export interface TaskGroupStats extends CommonStats {
  taskType: string;
  submitted: number;
  /** Share of the window's submissions approved by policy; null when none were submitted. */
  autoApprovedShare: number | null;
}

export interface ReviewStats {
  generatedAt: string;
  windowMinutes: number;
  reviews: ReviewGroupStats[];
  tasks: TaskGroupStats[];
}

export async function reviewStats(queries: ReviewStatsQueries, options: StatsOptions, now: Date): Promise<ReviewStats> {
  const { tenantId, windowMinutes } = options;
  const [reviewDepth, reviewDecisions, taskDepth, taskDecisions, taskShares] = await Promise.all([
    queries.reviewDepth(tenantId),
    queries.reviewDecisions(windowMinutes, tenantId),
    queries.taskDepth(tenantId),
    queries.taskDecisions(windowMinutes, tenantId),
    queries.taskAutoApproval(windowMinutes, tenantId),
  ]);
  const reviews = groups(reviewDepth, reviewDecisions, [], windowMinutes, now).map(({ key, ...rest }) => ({ checkpoint: key, ...rest }));
  const tasks = groups(taskDepth, taskDecisions, taskShares, windowMinutes, now).map(({ key, share, ...rest }) => ({
    taskType: key, ...rest, submitted: share?.submitted ?? 0, autoApprovedShare: share && share.submitted > 0 ? share.autoApproved / share.submitted : null,
  }));
  return { generatedAt: now.toISOString(), windowMinutes, reviews, tasks };
}

/** One row per (tenant, key) that has anything: waiting, decided in the window, or submitted in it. */
function groups(depth: DepthRow[], decisions: DecisionRow[], shares: TaskShareRow[], windowMinutes: number, now: Date) {
  const id = (row: { tenantId: string; key: string }) => JSON.stringify([row.tenantId, row.key]);
  const keys = new Map<string, { tenantId: string; key: string }>();
  for (const row of [...depth, ...decisions, ...shares]) keys.set(id(row), { tenantId: row.tenantId, key: row.key });
  const byId = <T extends { tenantId: string; key: string }>(rows: T[]) => new Map(rows.map((row) => [id(row), row]));
  const depthOf = byId(depth);
  const decisionsOf = byId(decisions);
  const shareOf = byId(shares);
  return [...keys.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, group]) => {
      const waiting = depthOf.get(key);
      const decided = decisionsOf.get(key);
      return {
        tenant: group.tenantId,
        key: group.key,
        pending: waiting?.pending ?? 0,
        oldestAgeSeconds: waiting?.oldest ? Math.max(0, Math.floor((now.getTime() - waiting.oldest.getTime()) / 1000)) : 0,
        decisions: decided?.decisions ?? 0,
        decisionsPerMinute: (decided?.decisions ?? 0) / windowMinutes,
        timeToDecisionP50Seconds: decided?.p50Seconds ?? null,
        timeToDecisionP90Seconds: decided?.p90Seconds ?? null,
        share: shareOf.get(key),
      };
    });
}
