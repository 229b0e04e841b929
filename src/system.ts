/**
 * Everything a Vetted process needs, built once from the configuration and passed down as one typed bag
 * (no module singletons). Workers, the API, the CLI and the tests all start here.
 */
import { randomUUID } from 'node:crypto';
import { createAdapterRegistry, type AdapterOverrides, type AdapterRegistry } from './adapters/registry.ts';
import { configSecrets, type Config } from './config.ts';
import { createDb, ensureDatabaseExists, migrateDatabase, serviceUnavailable, type Database } from './db/client.ts';
import { VettedError } from './errors.ts';
import { createDecisionsRepository, type DecisionsRepository } from './db/decisions-repository.ts';
import { createExecutionsRepository, type ExecutionsRepository } from './db/executions-repository.ts';
import { createModelsRepository, type ModelsRepository } from './db/models-repository.ts';
import { createRunsRepository, type RunsRepository } from './db/runs-repository.ts';
import { connectionErrorReporter, type ConnectionErrorReporter } from './observability/connection-errors.ts';
import { createLogger, type Logger } from './observability/logger.ts';
import { createMetrics, type Metrics } from './observability/metrics.ts';
import { createRedactor, type Redactor } from './observability/redact.ts';
import { systemClock, type Clock } from './ports.ts';
import { createQueues, createRedisConnection, type QueueSet } from './queue/queues.ts';
import { withTimeout } from './util/with-timeout.ts';

export interface System {
  config: Readonly<Config>;
  database: Database;
  runs: RunsRepository;
  models: ModelsRepository;
  executions: ExecutionsRepository;
  decisions: DecisionsRepository;
  queues: QueueSet;
  adapters: AdapterRegistry;
  logger: Logger;
  /** Logs a connection error at most once per source and interval (observability/connection-errors.ts). */
  reportConnectionError: ConnectionErrorReporter;
  metrics: Metrics;
  redact: Redactor;
  clock: Clock;
  newId: () => string;
  close(): Promise<void>;
}

/** How long Redis gets to answer at start-up before the process gives up, naming REDIS_URL. */
const REDIS_TIMEOUT_MS = 5000;

export interface SystemOptions {
  adapters?: AdapterOverrides;
  clock?: Clock;
  logDestination?: NodeJS.WritableStream;
  /** Create the database if missing and apply migrations (default true). */
  migrate?: boolean;
  poolSize?: number;
}

/**
 * Connects to PostgreSQL and Redis, migrates, and wires repositories, queues and adapters.
 * @throws VettedError SERVICE_UNAVAILABLE naming the service and what to do when one cannot be reached.
 */
export async function createSystem(config: Readonly<Config>, options: SystemOptions = {}): Promise<System> {
  const redact = createRedactor(configSecrets(config));
  const logger = createLogger({ level: config.logLevel, redact, destination: options.logDestination });
  if (options.migrate !== false) await ensureDatabaseExists(config.databaseUrl);
  const database = createDb(config.databaseUrl, { max: options.poolSize });
  try {
    await database.pool.query('select 1');
  } catch (error) {
    await database.close();
    throw serviceUnavailable('PostgreSQL', config.databaseUrl, error);
  }
  if (options.migrate !== false) {
    await migrateDatabase(database).catch(async (error: unknown) => {
      await database.close();
      const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message.split('\n')[0]) : String(error);
      throw new VettedError('SERVICE_UNAVAILABLE', `Applying the migrations in drizzle/ failed (${reason}). The database may hold tables from an incompatible build; point DATABASE_URL at a fresh database or fix the schema.`, { cause: error });
    });
  }
  try {
    await probeRedis(config.redisUrl);
  } catch (error) {
    await database.close();
    throw serviceUnavailable('Redis', config.redisUrl, error);
  }
  const reportConnectionError = connectionErrorReporter(logger);
  const queues = createQueues(config.redisUrl, config.queuePrefix, (error) => reportConnectionError('Redis (queues)', error));
  try {
    await withTimeout(queues.connection.ping(), REDIS_TIMEOUT_MS, 'Redis PING');
  } catch (error) {
    // Redis went away between the probe and here: drop the connection rather than wait for it to come back.
    queues.connection.disconnect();
    await Promise.all([withTimeout(queues.close(), 1000, 'closing the queues').catch(() => undefined), database.close()]);
    throw serviceUnavailable('Redis', config.redisUrl, error);
  }
  return {
    config,
    database,
    runs: createRunsRepository(database.db, database.pool),
    models: createModelsRepository(database.db),
    executions: createExecutionsRepository(database.db, database.pool),
    decisions: createDecisionsRepository(database.db),
    queues,
    adapters: createAdapterRegistry(config, options.adapters),
    logger,
    reportConnectionError,
    metrics: createMetrics(),
    redact,
    clock: options.clock ?? systemClock,
    newId: randomUUID,
    async close() {
      await queues.close().catch(() => undefined);
      await database.close().catch(() => undefined);
    },
  };
}

/**
 * Asks Redis once, on a connection of its own that never retries. The queues' connection must retry forever
 * (BullMQ's blocking workers need that), so trying it first against a closed port would leave a reconnect
 * loop behind, and every queue printing each refused attempt, instead of one clear error.
 */
async function probeRedis(redisUrl: string): Promise<void> {
  const probe = createRedisConnection(redisUrl, {
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
