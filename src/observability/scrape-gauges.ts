/**
 * Gauges computed from the shared stores when Prometheus scrapes; registered by the API only, so every
 * replica reports the same values: runs by status, the HITL and auto-pass rates, pending reviews and the
 * oldest one's age (PostgreSQL), and per stage queue its depth, the oldest waiting job's age and the workers
 * listening (Redis, or the embedded runner's tasks in one process).
 */
import { Gauge, collectDefaultMetrics } from 'prom-client';
import type { Metrics } from './metrics.ts';
import { RATE_WINDOW, type CountedQueues, type MetricsQueries } from './scrape-queries.ts';

/** Gauges computed from the shared stores when Prometheus scrapes; registered by the API only. */
export function registerScrapeGauges(metrics: Metrics, queries: MetricsQueries, queues: CountedQueues | undefined, now: () => number = Date.now): void {
  const registers = [metrics.registry];
  collectDefaultMetrics({ register: metrics.registry, prefix: 'vetted_process_' });
  new Gauge({
    name: 'vetted_runs',
    help: 'Runs by tenant, model and status (all runs stored)',
    labelNames: ['tenant', 'model', 'status'],
    registers,
    async collect() {
      const rows = await queries.runsByStatus();
      this.reset();
      for (const row of rows) this.set({ tenant: row.tenantId, model: row.model, status: row.status }, row.count);
    },
  });
  new Gauge({
    name: 'vetted_hitl_rate',
    help: `Share of runs that ended in the last ${RATE_WINDOW} and were parked for a person at least once, by tenant and model`,
    labelNames: ['tenant', 'model'],
    registers,
    async collect() {
      const rows = await queries.rates();
      this.reset();
      for (const row of rows) this.set({ tenant: row.tenantId, model: row.model }, row.hitlRate);
    },
  });
  new Gauge({
    name: 'vetted_auto_pass_rate',
    help: `Share of runs completed in the last ${RATE_WINDOW} that never needed a person, by tenant and model`,
    labelNames: ['tenant', 'model'],
    registers,
    async collect() {
      const rows = await queries.rates();
      this.reset();
      for (const row of rows) this.set({ tenant: row.tenantId, model: row.model }, row.autoPassRate);
    },
  });
  registerReviewGauges(metrics, queries);
  // Embedded mode counts its runner's tasks in memory (src/embedded/embedded-runner.ts); a system with neither has no queue gauges.
  if (queues) registerQueueGauges(metrics, queues, now);
}

function registerReviewGauges(metrics: Metrics, queries: MetricsQueries): void {
  const registers = [metrics.registry];
  const labelNames = ['tenant', 'model', 'checkpoint'] as const;
  new Gauge({
    name: 'vetted_pending_reviews',
    help: 'Runs waiting for a person now, by tenant, model and checkpoint',
    labelNames,
    registers,
    async collect() {
      this.reset();
      for (const row of await queries.pendingReviews()) this.set({ tenant: row.tenantId, model: row.model, checkpoint: row.checkpoint }, row.count);
    },
  });
  new Gauge({
    name: 'vetted_pending_review_oldest_seconds',
    help: 'How long the oldest pending review has waited, by tenant, model and checkpoint',
    labelNames,
    registers,
    async collect() {
      this.reset();
      for (const row of await queries.pendingReviews()) this.set({ tenant: row.tenantId, model: row.model, checkpoint: row.checkpoint }, row.oldestSeconds);
    },
  });
}

function registerQueueGauges(metrics: Metrics, queues: CountedQueues, now: () => number): void {
  const registers = [metrics.registry];
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
  new Gauge({
    name: 'vetted_queue_oldest_waiting_seconds',
    help: 'How long the oldest job waiting in each stage queue has waited (0 when none waits)',
    labelNames: ['queue'],
    registers,
    async collect() {
      for (const [stage, queue] of Object.entries(queues.stages)) {
        const [oldest] = await queue.getJobs(['wait'], 0, 0, true);
        this.set({ queue: stage }, oldest ? Math.max(0, (now() - oldest.timestamp) / 1000) : 0);
      }
    },
  });
  new Gauge({
    name: 'vetted_queue_workers',
    help: 'Workers connected to each stage queue (0: nobody takes its jobs)',
    labelNames: ['queue'],
    registers,
    async collect() {
      for (const [stage, queue] of Object.entries(queues.stages)) this.set({ queue: stage }, await queue.getWorkersCount());
    },
  });
}
