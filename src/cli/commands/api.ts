/** `vetted api`: the HTTP server. */
import type { Command } from 'commander';
import { VettedError } from '../../errors.ts';
import { action } from '../action.ts';
import { parseInteger } from '../option-parsers.ts';

export function registerApiCommands(program: Command): void {
  program
    .command('api')
    .description('Serve the HTTP API (OpenAPI at /openapi.json, docs at /docs) until SIGINT/SIGTERM')
    .option('--port <port>', 'port to listen on (default PORT or 8080)')
    .option('--host <host>', 'address to listen on (default HOST or 127.0.0.1)')
    .option('--with-workers', 'also run every stage worker in this process (handy on one machine)')
    .action(
      action(async (options: { port?: string; host?: string; withWorkers?: boolean }) => {
        // 0 asks the system for any free port (the URL is logged).
        const port = options.port === undefined ? undefined : parseInteger('--port', options.port, { min: 0, max: 65535 });
        const [{ loadConfig }, { createSystem }, { startApiServer }, { startWorkers }] = await Promise.all([
          import('../../config.ts'),
          import('../../system.ts'),
          import('../../../api/server.ts'),
          import('../../../workers/start-workers.ts'),
        ]);
        const system = await createSystem(loadConfig(), { migrate: true });
        const workers = options.withWorkers ? startWorkers(system) : undefined;
        const api = await startApiServer(system, { port, host: options.host, logRequests: true }).catch(async (error: unknown) => {
          // A port in use, a host not on this machine: say so in one line and let go of Redis and PostgreSQL,
          // whose open connections would otherwise keep the process alive.
          await workers?.close();
          await system.close();
          throw listenError(error);
        });
        system.logger.info({ url: api.url, workers: Boolean(workers) }, `API listening on ${api.url} (docs at ${api.url}/docs)`);
        await new Promise<void>((resolve) => {
          process.once('SIGINT', resolve);
          process.once('SIGTERM', resolve);
        });
        system.logger.info('shutting down: finishing requests and active jobs');
        await api.close();
        await workers?.close();
        await system.close();
      }),
    );
}

/** A listen failure as a bad-input error naming the option to change (a port in use, a host not here). */
export function listenError(error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') return new VettedError('INVALID_REQUEST', `${(error as Error).message}: another process is listening there; choose another --port (or PORT)`, { field: 'port' });
  if (code === 'EACCES') return new VettedError('INVALID_REQUEST', `${(error as Error).message}: ports below 1024 need privileges; choose another --port`, { field: 'port' });
  if (code === 'EADDRNOTAVAIL') return new VettedError('INVALID_REQUEST', `${(error as Error).message}: no such address on this machine; choose another --host`, { field: 'host' });
  return error;
}
