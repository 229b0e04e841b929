/**
 * Gauges computed from the shared stores when Prometheus scrapes; registered by the API only, so every
 * process reports the same counts (runs by status, HITL and auto-pass rates, queue depth).
 */
import { Gauge, collectDefaultMetrics } from 'prom-client';
import { RATE_WINDOW, type MetricsQueries } from '../db/metrics-queries.ts';
import type { QueueSet } from '../queue/queues.ts';
import type { Metrics } from './metrics.ts';

/** Gauges computed from the shared stores when Prometheus scrapes; registered by the API only. */
export function registerScrapeGauges(metrics: Metrics, queries: MetricsQueries, queues: QueueSet): void {
  const registers = [metrics.registry];
  collectDefaultMetrics({ register: metrics.registry, prefix: 'vetted_process_' });
  new Gauge({
    name: 'vetted_runs',
    help: 'Runs by status (all tenants)',
    labelNames: ['status'],
    registers,
    async collect() {
      const rows = await queries.runsByStatus();
      this.reset();
      for (const row of rows) this.set({ status: row.status }, row.count);
    },
  });
  new Gauge({
    name: 'vetted_hitl_rate',
    help: `Share of runs that ended in the last ${RATE_WINDOW} and were parked for a person at least once`,
    registers,
    async collect() {
      this.set(await queries.hitlRate());
    },
  });
  new Gauge({
    name: 'vetted_auto_pass_rate',
    help: `Share of runs completed in the last ${RATE_WINDOW} that never needed a person`,
    registers,
    async collect() {
      this.set(await queries.autoPassRate());
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
