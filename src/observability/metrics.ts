/**
 * Prometheus metrics (prom-client), one registry per process. Two kinds:
 *
 * - Observed where they happen, in the process that did the work (stage visits, decisions, run ends, parks,
 *   leaks, provider errors): counters and histograms labelled by tenant and model. Each process exports its
 *   own (the API at /metrics, a worker at `vetted worker --metrics-port`); Prometheus sums them across
 *   instances (`sum without (instance)`), as it does for any counter.
 * - Read from PostgreSQL and Redis at scrape time (scrape-gauges.ts), so every API replica reports the same
 *   value: runs by status, the HITL and auto-pass rates, pending reviews and their age, queue depth, the oldest
 *   waiting job, workers per queue.
 *
 * Every name starts with `vetted_`; the alerts (ops/prometheus/alerts.yml) and the dashboard
 * (ops/grafana/vetted.json) use only names defined here or in scrape-gauges.ts (a test checks).
 */
import { Counter, Histogram, Registry } from 'prom-client';

/**
 * Labels every run metric carries. `model` is the catalog reference (`owner/name`), `unknown` before extract,
 * or `inline` for a model sent with the request (`modelSource`): its name is the caller's choice, so each new
 * one would add a set of series without bound.
 */
export type RunLabels = 'tenant' | 'model';

export interface Metrics {
  registry: Registry;
  stageDuration: Histogram<RunLabels | 'stage' | 'outcome'>;
  /** Time to decision: from a review being raised to the decision that resolved it. */
  humanLatency: Histogram<RunLabels | 'checkpoint' | 'action'>;
  /** Runs that reached an end state, by outcome (completed, failed, cancelled, expired). */
  runOutcomes: Counter<RunLabels | 'outcome'>;
  /** Reviews raised (a run parked for a person), by checkpoint and reason. */
  reviewsRaised: Counter<RunLabels | 'checkpoint' | 'reason'>;
  /** Example values the leak firewall found in a payload (one per leaking field). */
  exampleLeaks: Counter<RunLabels>;
  /** Validations that found blocking issues (the payload could not run as built). */
  invalidPayloads: Counter<RunLabels>;
  /** Provider calls that failed (a thrown error, or a failed or cancelled prediction), by provider and code. */
  providerErrors: Counter<RunLabels | 'provider' | 'code'>;
  /** Payload fields a person's decision changed (the corrections report, counted as decisions land). */
  reviewCorrections: Counter<RunLabels | 'field'>;
  /** The time to decision, per tenant: reviews of runs by checkpoint, review tasks by task type. */
  reviewTimeToDecision: Histogram<'tenant' | 'checkpoint'>;
  taskTimeToDecision: Histogram<'tenant' | 'task_type'>;
  /** From a review being raised to the first thing a person did with it (a claim or a decision). */
  reviewTimeToFirstAction: Histogram<'tenant' | 'team' | 'checkpoint'>;
  /** A review's SLA step that fired because nobody had decided in time (policy.sla), by step. */
  reviewSlaBreaches: Counter<'tenant' | 'team' | 'checkpoint' | 'step'>;
  /**
   * A review's team as a label: `none` without one. Teams are named by the run's policy, which the submitter
   * writes, so the first MAX_TEAM_LABELS teams a process sees keep their names and any later one counts as `other`.
   */
  teamLabel(team: string | undefined): string;
}

const MAX_TEAM_LABELS = 100;

const STAGE_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120];
/** From seconds to days: people decide in minutes or hours, and reviews may wait a day or more. */
const DECISION_BUCKETS = [1, 5, 15, 30, 60, 300, 900, 1800, 3600, 4 * 3600, 24 * 3600, 3 * 24 * 3600];

export function createMetrics(): Metrics {
  const registry = new Registry();
  const registers = [registry];
  const teams = new Set<string>();
  return {
    registry,
    teamLabel(team) {
      if (!team) return 'none';
      if (teams.has(team)) return team;
      if (teams.size >= MAX_TEAM_LABELS) return 'other';
      teams.add(team);
      return team;
    },
    stageDuration: new Histogram({
      name: 'vetted_stage_duration_seconds',
      help: 'Time a stage visit spent loading and running its step, by tenant, model, stage and outcome',
      labelNames: ['tenant', 'model', 'stage', 'outcome'],
      buckets: STAGE_BUCKETS,
      registers,
    }),
    humanLatency: new Histogram({
      name: 'vetted_human_latency_seconds',
      help: 'Time to decision: from a review being raised to the decision that resolved it',
      labelNames: ['tenant', 'model', 'checkpoint', 'action'],
      buckets: DECISION_BUCKETS,
      registers,
    }),
    runOutcomes: new Counter({
      name: 'vetted_run_outcomes_total',
      help: 'Runs that reached an end state, by tenant, model and outcome (completed, failed, cancelled, expired)',
      labelNames: ['tenant', 'model', 'outcome'],
      registers,
    }),
    reviewsRaised: new Counter({
      name: 'vetted_reviews_raised_total',
      help: 'Runs parked for a person, by tenant, model, checkpoint and reason',
      labelNames: ['tenant', 'model', 'checkpoint', 'reason'],
      registers,
    }),
    exampleLeaks: new Counter({
      name: 'vetted_example_leaks_total',
      help: "Payload fields the leak firewall blocked because they hold a model's example value",
      labelNames: ['tenant', 'model'],
      registers,
    }),
    invalidPayloads: new Counter({
      name: 'vetted_invalid_payloads_total',
      help: 'Validations that found blocking issues in a payload',
      labelNames: ['tenant', 'model'],
      registers,
    }),
    providerErrors: new Counter({
      name: 'vetted_provider_errors_total',
      help: 'Provider calls that failed (an error, or a failed or cancelled prediction), by provider and code',
      labelNames: ['tenant', 'model', 'provider', 'code'],
      registers,
    }),
    reviewCorrections: new Counter({
      name: 'vetted_review_corrections_total',
      help: "Payload fields a person's decision changed from the builder's value, by tenant, model and field (an inline model's fields count under `*`)",
      labelNames: ['tenant', 'model', 'field'],
      registers,
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
    reviewTimeToFirstAction: new Histogram({
      name: 'vetted_review_time_to_first_action_seconds',
      help: 'Time from a review being raised to the first claim or decision on it, per tenant, team (policy.team, `none` without one) and checkpoint',
      labelNames: ['tenant', 'team', 'checkpoint'],
      buckets: DECISION_BUCKETS,
      registers: [registry],
    }),
    reviewSlaBreaches: new Counter({
      name: 'vetted_review_sla_breaches_total',
      help: 'Reviews that reached an SLA step (policy.sla) with no decision: step remind or escalate, per tenant, team and checkpoint',
      labelNames: ['tenant', 'team', 'checkpoint', 'step'],
      registers: [registry],
    }),
  };
}

/** The label a model outside the tenant's catalog is counted under (db/metrics-queries.ts uses the same). */
export const INLINE_MODEL_LABEL = 'inline';

/** What decides a run's model label: the model it resolved, and whether the request named it or sent it. */
export interface LabelledRun {
  tenantId: string;
  model: string | null;
  request: { model?: string | null; modelSource?: unknown };
}

/** The tenant and model labels of a run. */
export function runLabels(run: LabelledRun): Record<RunLabels, string> {
  return { tenant: run.tenantId, model: modelLabel(run) };
}

/**
 * `owner/name` without the version, so a model's series survive a new version. Only a model the request
 * named by reference came from the catalog; one sent inline is counted under `inline`, whatever it calls itself.
 */
export function modelLabel(run: Pick<LabelledRun, 'model' | 'request'>): string {
  if (!run.model) return 'unknown';
  const fromCatalog = Boolean(run.request.model) && run.request.modelSource === undefined;
  return fromCatalog ? (run.model.split(':')[0] ?? run.model) : INLINE_MODEL_LABEL;
}
