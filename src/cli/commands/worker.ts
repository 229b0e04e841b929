/** `vetted worker` and `vetted migrate`. */
import type { Command } from 'commander';
import { WORK_KINDS, type WorkKind } from '../../../workers/work-kinds.ts';
import { action, withSystem } from '../action.ts';
import { parseChoiceList, parseInteger } from '../option-parsers.ts';

function parseKinds(list: string | undefined): WorkKind[] {
  // An empty list would start no worker and wait for a signal forever.
  return list === undefined ? [...WORK_KINDS] : parseChoiceList('--stages', list, WORK_KINDS);
}

export function registerWorkerCommands(program: Command): void {
  program
    .command('worker')
    .description('Run stage workers until SIGINT/SIGTERM (then finish or hand back the active jobs and exit)')
    .option('--stages <list>', `comma-separated subset of ${WORK_KINDS.join(',')} (default: all)`)
    .option('--metrics-port <port>', "serve this process's Prometheus metrics at http://HOST:<port>/metrics (stage durations, outcomes, provider errors); callers send VETTED_METRICS_TOKEN as a bearer token, or, with it unset, must be on loopback")
    .action(
      action(async (options: { stages?: string; metricsPort?: string }) => {
        const kinds = parseKinds(options.stages);
        const metricsPort = options.metricsPort === undefined ? undefined : parseInteger('--metrics-port', options.metricsPort, { min: 0, max: 65535 });
        const [{ loadConfig }, { createSystem }, { startWorkers }, { startMetricsServer }] = await Promise.all([
          import('../../config.ts'),
          import('../../system.ts'),
          import('../../../workers/start-workers.ts'),
          import('../../observability/metrics-server.ts'),
        ]);
        const system = await createSystem(loadConfig(), { migrate: true });
        const workers = startWorkers(system, { kinds });
        const access = { token: system.config.metricsToken, production: system.config.production };
        const metrics = metricsPort === undefined ? undefined : await startMetricsServer(system.metrics.registry, system.config.host, metricsPort, access);
        system.logger.info({ queues: kinds, prefix: system.config.queuePrefix, concurrency: system.config.concurrency, metricsPort: metrics?.port }, 'workers started');
        await waitForShutdownSignal();
        system.logger.info('shutting down: draining active jobs');
        await metrics?.close();
        await workers.close();
        await system.close();
      }),
    );

  program
    .command('reconcile')
    .description('Look once for runs whose job went missing from Redis (after a Redis restart, say) and queue them again')
    .option('--grace-ms <ms>', 'leave runs changed more recently than this alone', '60000')
    .action(
      action(async (options: { graceMs: string }) => {
        const graceMs = parseInteger('--grace-ms', options.graceMs, { min: 0 });
        await withSystem(async (system) => {
          const { reconcile } = await import('../../engine/reconciler.ts');
          const result = await reconcile(system, system.queues, { graceMs });
          console.log(`examined ${result.examined} runs: ${result.requeued} requeued, ${result.expiriesRestored} review expiries and ${result.slaStepsRestored} reminders or escalations restored`);
        });
      }),
    );

  program
    .command('migrate')
    .description('Create the database if needed and apply the migrations in drizzle/')
    .action(
      action(async () => {
        const [{ loadConfig }, { createSystem }] = await Promise.all([import('../../config.ts'), import('../../system.ts')]);
        const system = await createSystem(loadConfig(), { migrate: true });
        await system.close();
        console.log('database is up to date');
      }),
    );
}

function waitForShutdownSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}
