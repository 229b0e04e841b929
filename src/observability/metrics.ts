/**
 * Prometheus metrics (prom-client), one registry per process. Counts that must agree across processes
 * (runs by status, HITL and auto-pass rates, queue depth) are read from PostgreSQL and Redis at scrape
 * time (scrape-gauges.ts); durations are observed where they happen (stage visits, decisions).
 */
import { Histogram, Registry } from 'prom-client';

export interface Metrics {
  registry: Registry;
  stageDuration: Histogram<'stage' | 'outcome'>;
  humanLatency: Histogram<'checkpoint' | 'action'>;
  /** Seed 004's time to decision, per tenant: reviews of runs by checkpoint, review tasks by task type. */
  reviewTimeToDecision: Histogram<'tenant' | 'checkpoint'>;
  taskTimeToDecision: Histogram<'tenant' | 'task_type'>;
}

/** From seconds to days: people decide in minutes or hours, and reviews may wait a day or more. */
const DECISION_BUCKETS = [1, 5, 15, 30, 60, 300, 900, 1800, 3600, 4 * 3600, 24 * 3600, 3 * 24 * 3600];

export function createMetrics(): Metrics {
  const registry = new Registry();
  return {
    registry,
    stageDuration: new Histogram({
      name: 'vetted_stage_duration_seconds',
      help: 'Time a stage visit spent loading and running its step, by stage and outcome',
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
    reviewTimeToDecision: new Histogram({
      name: 'vetted_review_time_to_decision_seconds',
      help: "Time from a review being raised to a person's decision on it, per tenant and checkpoint",
      labelNames: ['tenant', 'checkpoint'],
      buckets: DECISION_BUCKETS,
      registers: [registry],
    }),
    taskTimeToDecision: new Histogram({
      name: 'vetted_task_time_to_decision_seconds',
      help: 'Time from a task being submitted to its review by a person, per tenant and task type',
      labelNames: ['tenant', 'task_type'],
      buckets: DECISION_BUCKETS,
      registers: [registry],
    }),
  };
}
