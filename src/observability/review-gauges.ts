/**
 * The review queue's figures on /metrics, per tenant and checkpoint (reviews of runs) and per tenant and task
 * type (review tasks), read from PostgreSQL at scrape time through the same computation as `vetted stats`
 * (src/stats/review-stats.ts), so every API process reports the same. One read serves all the gauges of a
 * scrape. Times to decision are histograms observed where decisions happen (metrics.ts).
 */
import { Gauge } from 'prom-client';
import type { Clock } from '../ports.ts';
import { reviewStats, type ReviewStats } from '../stats/review-stats.ts';
import type { ReviewStatsQueries } from '../stats/review-stats-queries.ts';
import type { Metrics } from './metrics.ts';

/** Decisions per minute and the auto-approved share are over this many minutes. */
export const METRICS_WINDOW_MINUTES = 15;
/** A scrape reads the gauges one after another: they share one read made within this time. */
const SNAPSHOT_MS = 1000;

export function registerReviewGauges(metrics: Metrics, queries: ReviewStatsQueries, clock: Clock): void {
  let snapshot: { at: number; stats: Promise<ReviewStats> } | undefined;
  const current = (): Promise<ReviewStats> => {
    const now = clock.now();
    if (!snapshot || now.getTime() - snapshot.at > SNAPSHOT_MS) {
      const stats = reviewStats(queries, { windowMinutes: METRICS_WINDOW_MINUTES }, now);
      snapshot = { at: now.getTime(), stats };
      // A failed read is not kept: the next scrape tries again.
      stats.catch(() => (snapshot = undefined));
    }
    return snapshot.stats;
  };
  const registers = [metrics.registry];
  const gauge = <K extends 'reviews' | 'tasks'>(name: string, help: string, group: K, value: (row: ReviewStats[K][number]) => number | null) => {
    const label = group === 'reviews' ? 'checkpoint' : 'task_type';
    new Gauge({
      name, help, labelNames: ['tenant', label], registers,
      async collect() {
        const rows = (await current())[group] as ReviewStats[K][number][];
        this.reset();
        for (const row of rows) {
          const measured = value(row);
          const key = 'checkpoint' in row ? row.checkpoint : row.taskType;
          if (measured !== null) this.set({ tenant: row.tenant, [label]: key }, measured);
        }
      },
    });
  };
  const window = `${METRICS_WINDOW_MINUTES} minutes`;
  // Waiting reviews of runs and the oldest wait are vetted_pending_reviews and vetted_pending_review_oldest_seconds
  // (scrape-gauges.ts), which also carry the model: one series per fact, so alerts and dashboards cannot disagree.
  gauge('vetted_review_decisions_per_minute', `People's decisions on reviews per minute over the last ${window}, per tenant and checkpoint`, 'reviews', (row) => row.decisionsPerMinute);
  gauge('vetted_task_pending', 'Review tasks waiting for a person, per tenant and task type', 'tasks', (row) => row.pending);
  gauge('vetted_task_oldest_pending_seconds', 'How long the oldest waiting task has waited, per tenant and task type', 'tasks', (row) => row.oldestAgeSeconds);
  gauge('vetted_task_reviews_per_minute', `Tasks people reviewed per minute over the last ${window}, per tenant and task type`, 'tasks', (row) => row.decisionsPerMinute);
  gauge('vetted_task_auto_approved_ratio', `Share of the tasks submitted in the last ${window} that the routing policy approved at once, per tenant and task type`, 'tasks', (row) => row.autoApprovedShare);
}
