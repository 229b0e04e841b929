/** `vetted api` (the HTTP server) and `vetted keys` (API key management). */
import type { Command } from 'commander';
import { loadConfig } from '../../config.ts';
import type { ExtraPermission } from '../../db/schema/index.ts';
import { VettedError } from '../../errors.ts';
import { ROLES } from '../../auth/api-keys.ts';
import { createSystem } from '../../system.ts';
import { startApiServer } from '../../../api/server.ts';
import { startWorkers } from '../../../workers/start-workers.ts';
import { action, withSystem } from '../action.ts';
import { parseChoice, parseInteger } from '../option-parsers.ts';

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
        const system = await createSystem(loadConfig());
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

  const keys = program.command('keys').description('API keys: each bound to a tenant and a role (submitter, reviewer, admin)');
  keys
    .command('create')
    .description('Create a key and print it once (only its hash is stored)')
    .requiredOption('--tenant <id>', 'the tenant the key acts for')
    .requiredOption('--role <role>', `one of ${ROLES.join(', ')}`)
    .option('--override', 'may approve payloads that still have blocking issues')
    .option('--label <text>', 'a note to recognise the key by')
    .action(
      action(async (options: { tenant: string; role: string; override?: boolean; label?: string }) => {
        const role = parseChoice('--role', options.role, ROLES);
        await withSystem(async (system) => {
          const permissions: ExtraPermission[] = options.override ? ['override'] : [];
          const { key, row } = await system.apiKeys.create({ tenantId: options.tenant, role, permissions, label: options.label });
          process.stderr.write(`created key ${row.id} for tenant ${row.tenantId} (${row.role}${permissions.length ? ', override' : ''}); it is shown once:\n`);
          console.log(key);
        });
      }),
    );
  keys
    .command('list')
    .description('List keys (ids, tenants, roles; never secrets)')
    .action(
      action(async () => {
        await withSystem(async (system) => {
          const rows = await system.apiKeys.list();
          if (rows.length === 0) return console.log('No keys. Create one with `vetted keys create --tenant t --role reviewer`.');
          console.table(rows.map((r) => ({ id: r.id, tenant: r.tenantId, role: r.role, permissions: r.permissions.join(','), label: r.label, revoked: r.revokedAt?.toISOString() ?? '' })));
        });
      }),
    );
  keys
    .command('revoke <id>')
    .description('Revoke a key (takes effect within seconds)')
    .action(
      action(async (id: string) => {
        await withSystem(async (system) => {
          if (!(await system.apiKeys.revoke(id))) throw new VettedError('INVALID_REQUEST', `No key ${id}`, { field: 'id' });
          console.log(`revoked ${id}`);
        });
      }),
    );
}

function listenError(error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') return new VettedError('INVALID_REQUEST', `${(error as Error).message}: another process is listening there; choose another --port (or PORT)`, { field: 'port' });
  if (code === 'EACCES') return new VettedError('INVALID_REQUEST', `${(error as Error).message}: ports below 1024 need privileges; choose another --port`, { field: 'port' });
  if (code === 'EADDRNOTAVAIL') return new VettedError('INVALID_REQUEST', `${(error as Error).message}: no such address on this machine; choose another --host`, { field: 'host' });
  return error;
}
