/**
 * The whole product in one process, for people with only Node: PGlite as the store (src/db/pglite.ts, the
 * same migrations and repositories) and the embedded runner instead of Redis and BullMQ (embedded-runner.ts). The
 * API, the console and the CLI take it as any System; it has no `queues`.
 */
import { configSecrets, type Config } from '../config.ts';
import { openEmbeddedDatabase } from '../db/pglite.ts';
import { createNotifier, restoreExpiredNotices, restoreNearExpiry } from '../notifications/notify.ts';
import { connectionErrorReporter } from '../observability/connection-error-reporter.ts';
import { createLogger } from '../observability/logger.ts';
import { createRedactor } from '../observability/redact.ts';
import { purgeExpiredDocuments } from '../retention/purge.ts';
import { shadowRun } from '../shadow/shadow-run.ts';
import { triggerShadow } from '../shadow/trigger.ts';
import { wireSystem, type System, type SystemOptions } from '../system.ts';
import { createEmbeddedRunner, type EmbeddedRunner } from './embedded-runner.ts';

export interface EmbeddedSystemOptions extends Pick<SystemOptions, 'adapters' | 'clock' | 'logDestination'> {
  /** Where PGlite keeps its files; undefined keeps the database in memory (gone at exit). */
  dataDir?: string;
}

export interface EmbeddedSystem extends System {
  readonly runner: EmbeddedRunner;
}

/**
 * Opens the embedded database (migrating it), wires the system over it and starts the runner.
 * @throws VettedError SERVICE_UNAVAILABLE when the data directory is in use or cannot be opened.
 */
export async function createEmbeddedSystem(config: Readonly<Config>, options: EmbeddedSystemOptions = {}): Promise<EmbeddedSystem> {
  const redact = createRedactor(configSecrets(config));
  const logger = createLogger({ level: config.logLevel, redact, destination: options.logDestination });
  const database = await openEmbeddedDatabase({ dataDir: options.dataDir });
  const runner = createEmbeddedRunner(logger);
  const wired = wireSystem(config, database, options, {
    logger,
    redact,
    reportConnectionError: connectionErrorReporter(logger),
    dispatch: runner,
    async close() {
      await runner.close();
      notifier.close();
      await database.close();
    },
  });
  const system: EmbeddedSystem = {
    ...wired,
    runner,
    inProcessQueues: runner.stageQueues,
    async backupStore() {
      const dump = await database.embedded!.dump();
      return new Uint8Array(await dump.arrayBuffer());
    },
    // Shadow mode as with workers, the shadow job being a background task here.
    onBuilt: (run, buildAttempt) => void triggerShadow({ ...system, queues: { enqueueShadow: runner.enqueueShadow } }, { run, buildAttempt }),
  };
  const notifier = createNotifier(system);
  await runner.start({
    engine: system,
    notify: (job) => notifier.process(job),
    shadow: (job) => shadowRun(system, job),
    purge: () => purgeExpiredDocuments(system),
    restoreWarning: (run) => restoreNearExpiry(system, run),
    restoreExpiredNotices: (graceMs) => restoreExpiredNotices(system, { graceMs }),
  }).catch(async (error: unknown) => {
    await system.close();
    throw error;
  });
  return system;
}
