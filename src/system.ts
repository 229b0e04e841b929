/**
 * Everything a Vetted process needs, built once from the configuration and passed down as one typed bag
 * (no module singletons). Workers, the API, the CLI and the tests all start here.
 */
import { randomUUID } from 'node:crypto';
import { createAdapterRegistry, type AdapterOverrides } from './adapters/registry.ts';
import { configSecrets, type Config } from './config.ts';
import type { AuditTrail } from './audit/audit-record.ts';
import { createAuditTrail } from './db/audit-trail.ts';
import { createApiKeysRepository, type ApiKeysRepository } from './db/api-keys-repository.ts';
import { openDatabase, pingDatabase, serviceUnavailable, type Database } from './db/client.ts';
import { createEventHub, eventHubSource } from './db/event-hub.ts';
import type { EventHub } from './engine/event-hub.ts';
import { createMetricsQueries } from './db/metrics-queries.ts';
import type { CountedQueues, MetricsQueries } from './observability/scrape-queries.ts';
import { createNotificationsRepository, type NotificationsRepository } from './db/notifications-repository.ts';
import { createModelsRepository } from './db/models-repository.ts';
import { createPolicyPreviewQueries } from './db/policy-preview-queries.ts';
import type { PolicyPreviewQueries } from './policy/preview-queries.ts';
import { createPgRunStore } from './db/pg-run-store.ts';
import { createReviewStatsQueries } from './db/review-stats-queries.ts';
import { createCorrectionsQueries } from './db/corrections-queries.ts';
import type { CorrectionsQueries } from './reports/corrections-queries.ts';
import type { ReviewStatsQueries } from './stats/review-stats-queries.ts';
import type { RunSealing } from './db/run-sealing.ts';
import { createRetentionRepository, type RetentionRepository } from './db/retention-repository.ts';
import { rotateSealedValues, type RotationReport } from './db/secrets-rotation.ts';
import { sealerFromConfig, secretFieldNames } from './secrets/sealer.ts';
import { createReviewFeed, type ReviewFeed } from './db/review-feed.ts';
import { createReviewersRepository, type ReviewersRepository } from './db/reviewers-repository.ts';
import { createDecisionLinkLedger } from './db/decision-link-uses.ts';
import type { DecisionLinkLedger } from './decision-channels/link-ledger.ts';
import { createRunQueries, type RunQueries } from './db/run-queries.ts';
import { createShadowReportsRepository, type ShadowReportsRepository } from './db/shadow-reports-repository.ts';
import { createShadowSettingsRepository, type ShadowSettingsRepository } from './db/shadow-settings-repository.ts';
import { createTasksRepository, type TasksRepository } from './db/tasks-repository.ts';
import type { Dispatch } from './engine/dispatch.ts';
import type { Engine } from './engine/engine.ts';
import { connectionErrorReporter, type ConnectionErrorReporter } from './observability/connection-error-reporter.ts';
import { createLogger, type Logger } from './observability/logger.ts';
import { createMetrics } from './observability/metrics.ts';
import { gatedNotifications } from './notifications/gate.ts';
import { hasChannels } from './notifications/settings.ts';
import { createRedactor, type Redactor } from './observability/redact.ts';
import { startTracing } from './observability/tracing.ts';
import type { Telemetry } from 'bullmq';
import { BullMQOtel } from 'bullmq-otel';
import { systemClock, type Clock } from './ports.ts';
import { createQueues, type QueueSet } from './queue/queues.ts';
import { createRedisClient } from './queue/redis-target.ts';
import type { RedisTarget } from './redis-url.ts';
import { triggerShadow } from './shadow/trigger.ts';
import { withTimeout } from './util/with-timeout.ts';

/**
 * The run engine over PostgreSQL and BullMQ (its store, catalog and dispatch), plus the read-side repositories
 * the API and the CLI use. Every field that touches PostgreSQL is a repository from src/db.
 */
export interface System extends Engine {
  readonly database: Database;
  /** BullMQ's queues; absent in embedded mode, where the in-process runner does their work (src/embedded). */
  readonly queues?: QueueSet;
  /** Embedded mode: the in-process runner's stage tasks, counted for the queue gauges as BullMQ's queues are. */
  readonly inProcessQueues?: CountedQueues;
  readonly runQueries: RunQueries;
  readonly apiKeys: ApiKeysRepository;
  readonly reviewers: ReviewersRepository;
  /** Which email decision links were used (each decides once). */
  readonly decisionLinks: DecisionLinkLedger;
  /** The tenant-wide review events (the console's live queue). */
  readonly reviewFeed: ReviewFeed;
  readonly shadowReports: ShadowReportsRepository;
  readonly shadowSettings: ShadowSettingsRepository;
  readonly metricsQueries: MetricsQueries;
  /** Review tasks and task types. */
  readonly tasks: TasksRepository;
  /** Each tenant's notification channels, and the ledger that sends each notification once. */
  readonly notifications: NotificationsRepository;
  /** The review queue's figures per tenant, checkpoint and task type (vetted stats, /metrics). */
  readonly reviewStatsQueries: ReviewStatsQueries;
  /** People's decisions with their edits, for the corrections report. */
  readonly corrections: CorrectionsQueries;
  /** Per-tenant retention settings and the purge of run documents. */
  readonly retention: RetentionRepository;
  /** The stored runs a policy preview replays (read-only). */
  readonly previewRuns: PolicyPreviewQueries;
  /** Each tenant's hash-chained audit records (the export an auditor verifies). */
  readonly auditTrail: AuditTrail;
  /** Logs a connection error at most once per source and interval (observability/connection-errors.ts). */
  readonly reportConnectionError: ConnectionErrorReporter;
  /** BullMQ's OpenTelemetry integration, when tracing is on (queues and workers carry the trace through jobs). */
  readonly telemetry?: Telemetry;
  /** Re-seals every stored secret under the current data key (`vetted secrets rotate`). */
  rotateSealedValues(onProgress?: (table: string, rows: number) => void): Promise<RotationReport>;
  /** Resolves when PostgreSQL answers (readiness). */
  pingDatabase(): Promise<void>;
  /** A backup of the whole store (a gzipped tar), taken while it runs: the embedded store only (src/embedded). */
  backupStore?(): Promise<Uint8Array>;
  /** A hub that wakes event-stream readers when a run's trail may have grown; the caller closes it. */
  openEventHub(): EventHub;
  close(): Promise<void>;
}

/** A system whose work goes through Redis: what createSystem returns, and what the BullMQ workers run on. */
export type QueuedSystem = System & { readonly queues: QueueSet };

/** How long Redis gets to answer at start-up before the process gives up, naming REDIS_URL. */
const REDIS_TIMEOUT_MS = 5000;

export interface SystemOptions {
  adapters?: AdapterOverrides;
  clock?: Clock;
  logDestination?: NodeJS.WritableStream;
  /** Create the database if missing and apply migrations (default true). */
  migrate?: boolean;
  poolSize?: number;
  /**
   * Trace through BullMQ even without OTEL_EXPORTER_OTLP_ENDPOINT: the caller registered a tracer provider of
   * its own (tests, with an in-memory exporter).
   */
  tracing?: boolean;
}

/**
 * Connects to PostgreSQL and Redis, migrates, and wires repositories, queues and adapters.
 * @throws VettedError SERVICE_UNAVAILABLE naming the service and what to do when one cannot be reached.
 */
export async function createSystem(config: Readonly<Config>, options: SystemOptions = {}): Promise<QueuedSystem> {
  const redact = createRedactor(configSecrets(config));
  const logger = createLogger({ level: config.logLevel, redact, destination: options.logDestination });
  const database = await openDatabase(config.databaseUrl, { max: options.poolSize, migrate: options.migrate !== false });
  try {
    await probeRedis(config.redis);
  } catch (error) {
    await database.close();
    throw serviceUnavailable('Redis', config.redisUrl, error);
  }
  const reportConnectionError = connectionErrorReporter(logger);
  // Exporting spans starts here, once per process (the SDK is global); tests register their own provider.
  const tracing = config.tracing.otlpEndpoint ? startTracing({ serviceName: config.tracing.serviceName, otlpEndpoint: config.tracing.otlpEndpoint }) : undefined;
  const telemetry = tracing || options.tracing ? new BullMQOtel({ tracerName: 'vetted' }) : undefined;
  const queues = createQueues(config.redis, config.queuePrefix, (error) => reportConnectionError('Redis (queues)', error), telemetry);
  try {
    await withTimeout(queues.connection.ping(), REDIS_TIMEOUT_MS, 'Redis PING');
  } catch (error) {
    // Redis went away between the probe and here: drop the connection rather than wait for it to come back.
    queues.connection.disconnect();
    await Promise.all([withTimeout(queues.close(), 1000, 'closing the queues').catch(() => undefined), database.close()]);
    throw serviceUnavailable('Redis', config.redisUrl, error);
  }
  const system: QueuedSystem = {
    ...wireSystem(config, database, options, {
      logger,
      redact,
      reportConnectionError,
      dispatch: { enqueueStage: queues.enqueueStage, scheduleExpiry: queues.scheduleExpiry, scheduleSlaStep: queues.scheduleSlaStep, enqueueWebhook: queues.enqueueWebhook, enqueueNotification: (job, at) => queues.enqueueNotification(job, at), withdrawNotification: queues.withdrawNotification },
      async close() {
        await queues.close().catch(() => undefined);
        await database.close().catch(() => undefined);
        await tracing?.shutdown().catch(() => undefined);
      },
    }),
    queues,
    telemetry,
    // Shadow mode compares V2 with each stored build, detached: it can neither delay nor fail the run.
    onBuilt: (run, buildAttempt) => void triggerShadow(system, { run, buildAttempt }),
  };
  return system;
}

/** What a system runs on besides PostgreSQL: its logger, how it hands out work, and how it closes. */
export interface SystemRuntime {
  logger: Logger;
  redact: Redactor;
  reportConnectionError: ConnectionErrorReporter;
  /** Notification jobs pass a gate first (below); the rest go straight through. */
  dispatch: Dispatch;
  close(): Promise<void>;
}

/**
 * The repositories, adapters and engine over an open database: everything a system is whatever carries its
 * work (BullMQ here, the in-process runner in embedded mode, src/embedded/embedded-system.ts).
 */
export function wireSystem(config: Readonly<Config>, database: Database, options: SystemOptions, runtime: SystemRuntime): System {
  const { logger, redact } = runtime;
  const notifications = createNotificationsRepository(database.db);
  const clock = options.clock ?? systemClock;
  const models = createModelsRepository(database.db, { clock: { now: () => clock.now().getTime() } });
  const retention = createRetentionRepository(database.db);
  // Secret-role values are sealed on their way into PostgreSQL; the names also teach the log redactor.
  const sealing: RunSealing = {
    sealer: sealerFromConfig(config.dataKeys),
    async secretFields(schemaKey) {
      const names = secretFieldNames(await models.getSchema(schemaKey));
      redact.learnSecretFields(names);
      return new Set(names);
    },
  };
  return {
    config,
    database,
    store: createPgRunStore(database, sealing),
    models,
    runQueries: createRunQueries(database.db),
    apiKeys: createApiKeysRepository(database.db),
    reviewers: createReviewersRepository(database.db),
    decisionLinks: createDecisionLinkLedger(database.db),
    reviewFeed: createReviewFeed(database.db),
    shadowReports: createShadowReportsRepository(database.db),
    shadowSettings: createShadowSettingsRepository(database.db),
    metricsQueries: createMetricsQueries(database.db),
    tasks: createTasksRepository(database.db),
    notifications,
    reviewStatsQueries: createReviewStatsQueries(database.db),
    corrections: createCorrectionsQueries(database.db),
    previewRuns: createPolicyPreviewQueries(database.db),
    auditTrail: createAuditTrail(database.db),
    retention,
    piiMasking: piiMaskingOf(retention, clock),
    dispatch: {
      ...runtime.dispatch,
      // Only tenants with a channel get notification jobs: a parked run keeps nothing of its own in Redis otherwise.
      enqueueNotification: gatedNotifications(async (tenantId) => hasChannels(await notifications.getSettings(tenantId)), (job, at) => runtime.dispatch.enqueueNotification(job, at)),
      // A tenant without channels was never given a job to withdraw: a decision costs it no Redis call.
      withdrawNotification: gatedNotifications(async (tenantId) => hasChannels(await notifications.getSettings(tenantId)), (job) => runtime.dispatch.withdrawNotification(job)),
    },
    adapters: createAdapterRegistry(config, options.adapters),
    logger,
    reportConnectionError: runtime.reportConnectionError,
    metrics: createMetrics(),
    redact,
    clock,
    newId: randomUUID,
    rotateSealedValues: (onProgress) => rotateSealedValues(database.pool, sealing.sealer, onProgress),
    pingDatabase: () => pingDatabase(database),
    openEventHub: () => createEventHub(eventHubSource(database, config.databaseUrl), logger),
    close: runtime.close,
  };
}

/**
 * Asks Redis once, on a connection of its own that never retries. The queues' connection must retry forever
 * (BullMQ's blocking workers need that), so trying it first against a closed port would leave a reconnect
 * loop behind, and every queue printing each refused attempt, instead of one clear error.
 */
export async function probeRedis(target: RedisTarget): Promise<void> {
  // On a cluster this also waits for CLUSTER INFO to say the cluster is ok (ioredis' ready check).
  const probe = createRedisClient(target, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: REDIS_TIMEOUT_MS,
  });
  // The error event carries the reason (ECONNREFUSED, WRONGPASS...); connect() only says the connection closed.
  let reason: unknown;
  probe.on('error', (error: unknown) => {
    reason ??= error;
  });
  try {
    await withTimeout(probe.connect().then(() => probe.ping()), REDIS_TIMEOUT_MS, 'Redis');
  } catch (error) {
    throw reason ?? error;
  } finally {
    probe.disconnect();
  }
}

/** How long a tenant's PII-masking setting is trusted before it is read again (intake asks on every request). */
const SETTING_TTL_MS = 10_000;

/** Whether a tenant masks PII in stored text, read from its retention settings and kept for a few seconds. */
function piiMaskingOf(retention: RetentionRepository, clock: Clock): (tenantId: string) => Promise<boolean> {
  const cache = new Map<string, { value: boolean; until: number }>();
  return async (tenantId) => {
    const now = clock.now().getTime();
    const hit = cache.get(tenantId);
    if (hit && hit.until > now) return hit.value;
    const value = (await retention.get(tenantId))?.maskPii ?? false;
    if (cache.size > 10_000) cache.clear();
    cache.set(tenantId, { value, until: now + SETTING_TTL_MS });
    return value;
  };
}
