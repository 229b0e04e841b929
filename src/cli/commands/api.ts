/** `vetted api`: the HTTP server; `--embedded`, the whole product in this process on PGlite. */
import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import type { Config } from '../../config.ts';
import type { BootstrapInput } from '../../embedded/bootstrap.ts';
import { VettedError } from '../../errors.ts';
import type { System } from '../../system.ts';
import { action } from '../action.ts';
import { readJsonFile } from '../io.ts';
import { parseInteger } from '../option-parsers.ts';

export function registerApiCommands(program: Command): void {
  program
    .command('api')
    .description('Serve the HTTP API (OpenAPI at /openapi.json, docs at /docs) until SIGINT/SIGTERM')
    .option('--port <port>', 'port to listen on (default PORT or 8080)')
    .option('--host <host>', 'address to listen on (default HOST or 127.0.0.1)')
    .option('--with-workers', 'also run every stage worker in this process (handy on one machine)')
    .option('--embedded', 'one process without PostgreSQL or Redis: PGlite as the store, the work done in this process (not for production)')
    .option('--data-dir <dir>', `with --embedded: where PGlite keeps the data (default ${DEFAULT_DATA_DIR})`)
    .option('--in-memory', 'with --embedded: keep the data in memory only (gone when the process ends)')
    .option('--model <file>', 'with --embedded: register this model file at start (repeatable)', (file: string, files: string[]) => [...files, file], [] as string[])
    .option('--tenant <id>', 'with --embedded: the tenant --model registers for, and of the admin key a new store gets', 'default')
    .action(
      action(async (options: ApiOptions) => {
        // 0 asks the system for any free port (the URL is logged).
        const port = options.port === undefined ? undefined : parseInteger('--port', options.port, { min: 0, max: 65535 });
        const embedded = embeddedStore(options);
        // Loaded here, not at the top: `vetted --help` and a usage error never need the system (see src/cli/main.ts).
        const [{ loadConfig }, { createSystem }, { startApiServer }, { startWorkers }] = await Promise.all([
          import('../../config.ts'),
          import('../../system.ts'),
          import('../../../api/server.ts'),
          import('../../../workers/start-workers.ts'),
        ]);
        const config = loadConfig();
        const models = embedded ? await Promise.all((options.model ?? []).map(async (file) => ({ file, source: await readJsonFile(file, 'model file') }))) : [];
        const system = embedded ? await startEmbedded(config, embedded.dataDir, { tenantId: options.tenant ?? 'default', models }) : await createSystem(config, { migrate: true });
        // Embedded, the runner already works in this process: there are no BullMQ workers to start.
        const workers = options.withWorkers && system.queues ? startWorkers({ ...system, queues: system.queues }) : undefined;
        const api = await startApiServer(system, { port, host: options.host, logRequests: true }).catch(async (error: unknown) => {
          // A port in use, a host not on this machine: say so in one line and let go of Redis and PostgreSQL,
          // whose open connections would otherwise keep the process alive.
          await workers?.close();
          await system.close();
          throw listenError(error);
        });
        // Listen for the stop signals before saying "listening": a supervisor may stop us the moment it reads that line.
        const stopRequested = new Promise<void>((resolve) => {
          process.once('SIGINT', resolve);
          process.once('SIGTERM', resolve);
        });
        // Commands that need the store while this process holds it (a backup) find the API through this file.
        const withdraw = embedded?.dataDir ? (await import('../../embedded/api-file.ts')).announceApi(embedded.dataDir, api.url) : undefined;
        system.logger.info({ url: api.url, workers: Boolean(workers) }, `API listening on ${api.url} (docs at ${api.url}/docs)`);
        await stopRequested;
        withdraw?.();
        system.logger.info('shutting down: finishing requests and active jobs');
        await api.close();
        await workers?.close();
        await system.close();
      }),
    );
}

interface ApiOptions {
  port?: string;
  host?: string;
  withWorkers?: boolean;
  embedded?: boolean;
  dataDir?: string;
  inMemory?: boolean;
  model?: string[];
  tenant?: string;
}

/** Where embedded mode keeps its data unless told otherwise: in the user's home, so it outlives a restart. */
export const DEFAULT_DATA_DIR = path.join(os.homedir(), '.vetted', 'pglite');

/**
 * The embedded store the options ask for (dataDir undefined: in memory), or undefined without --embedded.
 * @throws VettedError INVALID_REQUEST for a store option without --embedded, or both at once.
 */
export function embeddedStore(options: Pick<ApiOptions, 'embedded' | 'dataDir' | 'inMemory' | 'model'>): { dataDir: string | undefined } | undefined {
  if (!options.embedded) {
    const stray = options.dataDir !== undefined ? 'data-dir' : options.inMemory ? 'in-memory' : options.model?.length ? 'model' : undefined;
    if (stray) throw new VettedError('INVALID_REQUEST', `--${stray} applies to the embedded store only; add --embedded (or drop --${stray})`, { field: stray });
    return undefined;
  }
  if (options.inMemory && options.dataDir !== undefined) throw new VettedError('INVALID_REQUEST', '--in-memory and --data-dir contradict each other; choose one', { field: 'data-dir' });
  if (options.dataDir !== undefined && options.dataDir.trim() === '') throw new VettedError('INVALID_REQUEST', '--data-dir must name a directory', { field: 'data-dir' });
  return { dataDir: options.inMemory ? undefined : (options.dataDir ?? DEFAULT_DATA_DIR) };
}

async function startEmbedded(config: Config, dataDir: string | undefined, first: BootstrapInput): Promise<System> {
  const [{ embeddedBanner }, { bootstrapEmbedded }, { createEmbeddedSystem }] = await Promise.all([
    import('../../embedded/banner.ts'),
    import('../../embedded/bootstrap.ts'),
    import('../../embedded/embedded-system.ts'),
  ]);
  // Said on stderr, before anything else: whoever started this should not mistake it for a deployment.
  console.error(embeddedBanner(dataDir));
  const system = await createEmbeddedSystem(config, { dataDir });
  try {
    for (const line of await bootstrapEmbedded(system, first)) console.error(line);
  } catch (error) {
    await system.close();
    throw error;
  }
  system.logger.warn({ embedded: true, dataDir: dataDir ?? 'memory' }, 'embedded mode: single process, not for production');
  return system;
}

/** A listen failure as a bad-input error naming the option to change (a port in use, a host not here). */
export function listenError(error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') return new VettedError('INVALID_REQUEST', `${(error as Error).message}: another process is listening there; choose another --port (or PORT)`, { field: 'port' });
  if (code === 'EACCES') return new VettedError('INVALID_REQUEST', `${(error as Error).message}: ports below 1024 need privileges; choose another --port`, { field: 'port' });
  if (code === 'EADDRNOTAVAIL') return new VettedError('INVALID_REQUEST', `${(error as Error).message}: no such address on this machine; choose another --host`, { field: 'host' });
  return error;
}
