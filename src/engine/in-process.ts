/**
 * An Engine that lives in one process: the memory RunStore, the memory catalog, and a dispatch that keeps
 * its jobs in a list for the runner (in-process-runner.ts) instead of Redis. `vetted dry-run`, shadow replay, the bench's
 * in-process phase and the fast tests run the same stage table, moves and commit as the workers, on it.
 */
import { randomUUID } from 'node:crypto';
import type { CatalogStore } from '../catalog/catalog-store.ts';
import { createMemoryCatalog } from '../catalog/memory-catalog.ts';
import type { Config } from '../config.ts';
import { createLogger, type Logger } from '../observability/logger.ts';
import { createMetrics } from '../observability/metrics.ts';
import { createRedactor } from '../observability/redact.ts';
import { systemClock, type AdapterRegistry, type Clock } from '../ports.ts';
import type { Dispatch, NotificationJob, SlaStepJob, StageJob, WebhookJob } from './dispatch.ts';
import type { Engine } from './engine.ts';
import { createMemoryRunStore } from './memory-store.ts';
import type { StageName } from './stages.ts';

/** The runner's dispatch: stage jobs wait in a list (one per visit, as BullMQ's job ids make them). */
export interface ListDispatch extends Dispatch {
  /** Takes the oldest stage job, skipping (and keeping) jobs of `held` stages. */
  take(held?: readonly StageName[]): StageJob | undefined;
  /** Stage jobs still waiting. */
  pending(): readonly StageJob[];
  /** What would have been delivered or scheduled, for tests and for saying so. */
  readonly webhooks: readonly WebhookJob[];
  readonly expiries: readonly Date[];
  readonly slaSteps: readonly SlaStepJob[];
  readonly notifications: readonly NotificationJob[];
}

export interface InProcessEngine extends Engine {
  readonly dispatch: ListDispatch;
}

export interface InProcessOptions {
  config: Readonly<Config>;
  /** The builders and providers, built by the caller (a root) from the configuration: src/adapters/registry.ts. */
  adapters: AdapterRegistry;
  models?: CatalogStore;
  clock?: Clock;
  /** Default: a logger that writes nothing (a dry run's stdout is its answer). */
  logger?: Logger;
  newId?: () => string;
}

export function createInProcessEngine(options: InProcessOptions): InProcessEngine {
  const clock = options.clock ?? systemClock;
  const redact = createRedactor();
  return {
    config: options.config,
    store: createMemoryRunStore(clock),
    dispatch: createListDispatch(),
    models: options.models ?? createMemoryCatalog(),
    adapters: options.adapters,
    logger: options.logger ?? createLogger({ level: 'silent', redact }),
    metrics: createMetrics(),
    redact,
    clock,
    newId: options.newId ?? randomUUID,
  };
}

export function createListDispatch(): ListDispatch {
  const jobs: StageJob[] = [];
  const seen = new Set<string>();
  const webhooks: WebhookJob[] = [];
  const expiries: Date[] = [];
  const slaSteps: SlaStepJob[] = [];
  const notifications: NotificationJob[] = [];
  return {
    async enqueueStage(job) {
      const id = `${job.runId}.${job.stage}.${job.attempt}`;
      if (seen.has(id)) return;
      seen.add(id);
      jobs.push({ ...job });
    },
    async scheduleExpiry(expiresAt) {
      expiries.push(expiresAt);
    },
    async scheduleSlaStep(job) {
      slaSteps.push({ ...job });
    },
    async enqueueWebhook(job) {
      webhooks.push({ ...job });
    },
    async enqueueNotification(job) {
      notifications.push({ ...job });
    },
    async withdrawNotification(job) {
      const index = notifications.findIndex((queued) => queued.subject === job.subject && queued.subjectId === job.subjectId && queued.event === job.event);
      if (index !== -1) notifications.splice(index, 1);
    },
    take(held = []) {
      const index = jobs.findIndex((job) => !held.includes(job.stage));
      return index === -1 ? undefined : jobs.splice(index, 1)[0];
    },
    pending: () => [...jobs],
    webhooks,
    expiries,
    slaSteps,
    notifications,
  };
}
