/**
 * Prometheus metrics (prom-client), one registry per process. Counts that must agree across processes
 * (runs by status, HITL and auto-pass rates, queue depth) are read from PostgreSQL and Redis at scrape
 * time; durations are observed where they happen (stage workers, decisions).
 */
import { sql } from 'drizzle-orm';
import { Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Db } from '../db/client.ts';
import type { QueueSet } from '../queue/queues.ts';

export interface Metrics {
  registry: Registry;
  stageDuration: Histogram<'stage' | 'outcome'>;
  humanLatency: Histogram<'checkpoint' | 'action'>;
}

/** The window the rates are computed over. */
const RATE_WINDOW = '1 hour';

export function createMetrics(): Metrics {
  const registry = new Registry();
  return {
    registry,
    stageDuration: new Histogram({
      name: 'vetted_stage_duration_seconds',
      help: 'Time a stage job spent in its handler, by stage and outcome',
      labelNames: ['stage', 'outcome'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
    humanLatency: new Histogram({
      name: 'vetted_human_latency_seconds',
      help: 'Time from a review being raised to the decision that resolved it',
      labelNames: ['checkpoint', 'action'],
      buckets: [1, 5, 15, 30, 60, 300, 900, 1800, 3600, 4 * 3600, 24 * 3600],
      registers: [registry],
    }),
  };
}

/** Gauges computed from the shared stores when Prometheus scrapes; registered by the API only. */
export function registerScrapeGauges(metrics: Metrics, db: Db, queues: QueueSet): void {
  const registers = [metrics.registry];
  collectDefaultMetrics({ register: metrics.registry, prefix: 'vetted_process_' });
  new Gauge({
    name: 'vetted_runs',
    help: 'Runs by status (all tenants)',
    labelNames: ['status'],
    registers,
    async collect() {
      const rows = await db.execute<{ status: string; n: string }>(sql`select status, count(*)::text as n from runs group by status`);
      this.reset();
      for (const row of rows.rows) this.set({ status: row.status }, Number(row.n));
    },
  });
  new Gauge({
    name: 'vetted_hitl_rate',
    help: `Share of runs that ended in the last ${RATE_WINDOW} and were parked for a person at least once`,
    registers,
    async collect() {
      this.set(await ratio(db, WAS_PARKED, sql`status in ('completed', 'failed', 'cancelled', 'expired')`));
    },
  });
  new Gauge({
    name: 'vetted_auto_pass_rate',
    help: `Share of runs completed in the last ${RATE_WINDOW} that never needed a person`,
    registers,
    async collect() {
      this.set(await ratio(db, sql`not ${WAS_PARKED}`, sql`status = 'completed'`));
    },
  });
  new Gauge({
    name: 'vetted_queue_depth',
    help: 'Jobs waiting, active or delayed per stage queue',
    labelNames: ['queue'],
    registers,
    async collect() {
      for (const [stage, queue] of Object.entries(queues.stages)) {
        const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
        this.set({ queue: stage }, Object.values(counts).reduce((a, b) => a + b, 0));
      }
    },
  });
}

/** A run was parked at least once when its audit trail has a review.created event (found through its run_id index). */
const WAS_PARKED = sql`exists (select 1 from run_events e where e.run_id = runs.id and e.type = 'review.created')`;

/** Over the runs that ended in the window (every end sets completed_at), found through runs_completed_idx. */
async function ratio(db: Db, numerator: ReturnType<typeof sql>, population: ReturnType<typeof sql>): Promise<number> {
  const result = await db.execute<{ hit: string; total: string }>(sql`
    select count(*) filter (where ${numerator})::text as hit, count(*)::text as total
    from runs where ${population} and completed_at > now() - ${RATE_WINDOW}::interval`);
  const row = result.rows[0];
  const total = Number(row?.total ?? 0);
  return total === 0 ? 0 : Number(row?.hit ?? 0) / total;
}
