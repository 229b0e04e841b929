/** `vetted store`: the store as a whole. Moving the embedded store to PostgreSQL (and back), backups, restores. */
import type { Command } from 'commander';
import type { TableSummary } from '../../embedded/store.ts';
import { VettedError } from '../../errors.ts';
import { action } from '../action.ts';
import { DEFAULT_DATA_DIR } from './api.ts';

const STORE_NAMES = 'a postgres:// URL or the directory of an embedded store';

export function registerStoreCommands(program: Command): void {
  const store = program.command('store').description('The store as a whole: move the embedded store to PostgreSQL (and back), back it up, restore it');
  store
    .command('move')
    .description('Copy every run, document, event, decision, key, reviewer, policy and setting from one store to another, verified by row counts and hashes; the source is kept')
    .requiredOption('--to <store>', `where the data goes: ${STORE_NAMES} (migrated if new; must be empty)`)
    .option('--from <store>', `where the data is: ${STORE_NAMES}`, DEFAULT_DATA_DIR)
    .option('--replace', 'delete what the target holds first (without it a non-empty target is refused)')
    .action(
      action(async (options: { from: string; to: string; replace?: boolean }) => {
        const { moveStore, describeStore, isPostgresUrl } = await import('../../embedded/store.ts');
        const summary = await moveStore(options);
        printSummary(summary);
        const rows = summary.reduce((sum, table) => sum + table.rows, 0);
        process.stderr.write(`copied ${rows} rows in ${summary.length} tables from ${describeStore(options.from)} to ${describeStore(options.to)}; counts and hashes match. The source is unchanged.\n`);
        const next = isPostgresUrl(options.to)
          ? `next: DATABASE_URL=${describeStore(options.to)} vetted api, and \`vetted worker\` beside it (Redis at REDIS_URL)`
          : `next: vetted api --embedded --data-dir ${describeStore(options.to)}`;
        process.stderr.write(`${next}\n`);
      }),
    );
  store
    .command('check')
    .description('Print the row count and content hash of every table of a store (compare two stores, or a backup with its restore)')
    .option('--data-dir <store>', `the store: ${STORE_NAMES}`, DEFAULT_DATA_DIR)
    .action(
      action(async (options: { dataDir: string }) => {
        const { checkStore } = await import('../../embedded/store.ts');
        printSummary(await checkStore(options.dataDir));
      }),
    );
  store
    .command('backup')
    .description('Write a backup of the embedded store to a file (a gzipped tar of its data directory), through the embedded API when one holds the store')
    .requiredOption('--out <file>', 'the file to write')
    .option('--data-dir <dir>', 'the embedded store', DEFAULT_DATA_DIR)
    .option('--api <url>', 'take it through this embedded API (default: the one holding --data-dir, if it runs)')
    .option('--api-key <key>', 'an admin key for the API (default VETTED_API_KEY)')
    .action(
      action(async (options: BackupOptions) => {
        const { findRunningApi } = await import('../../embedded/api-file.ts');
        const api = options.api ?? findRunningApi(options.dataDir)?.url;
        if (api !== undefined) {
          const bytes = await backupThroughApi(api, options.apiKey ?? (await import('../../config.ts')).loadConfig().apiKey, options);
          await (await import('node:fs/promises')).writeFile(options.out, bytes);
          process.stderr.write(`backup of the store held by the API at ${api} written to ${options.out} (${bytes.length} bytes); \`vetted store restore ${options.out} --data-dir <new dir>\` prints its tables\n`);
          return;
        }
        const { backupStore } = await import('../../embedded/store.ts');
        const summary = await backupStore(options.dataDir, options.out);
        printSummary(summary);
        process.stderr.write(`backup written to ${options.out}; restore it with \`vetted store restore ${options.out} --data-dir <new dir>\`\n`);
      }),
    );
  store
    .command('restore <file>')
    .description('Restore a backup into a new embedded store (the directory must be empty or missing)')
    .requiredOption('--data-dir <dir>', 'the new store')
    .action(
      action(async (file: string, options: { dataDir: string }) => {
        if (options.dataDir.trim() === '') throw new VettedError('INVALID_REQUEST', '--data-dir must name a directory', { field: 'data-dir' });
        const { restoreStore } = await import('../../embedded/store.ts');
        printSummary(await restoreStore(file, options.dataDir));
        process.stderr.write(`restored ${file} into ${options.dataDir}; start it with \`vetted api --embedded --data-dir ${options.dataDir}\`\n`);
      }),
    );
}

/** One line per table, tab-separated, so two summaries compare with diff. */
function printSummary(summary: readonly TableSummary[]): void {
  for (const table of summary) console.log(`${table.table}\t${table.rows}\t${table.hash}`);
}

interface BackupOptions {
  out: string;
  dataDir: string;
  api?: string;
  apiKey?: string;
}

/** GET /api/store/backup from a running embedded API. @throws VettedError saying what to give or fix. */
async function backupThroughApi(api: string, key: string | undefined, options: BackupOptions): Promise<Buffer> {
  const held = options.api === undefined ? `The store at ${options.dataDir} is held by the embedded API at ${api}` : `The API at ${api}`;
  if (!key) throw new VettedError('INVALID_REQUEST', `${held}: the backup is taken through it, with an admin key (--api-key or VETTED_API_KEY)`, { field: 'api-key' });
  let response: Response;
  try {
    response = await fetch(new URL('/api/store/backup', api), { headers: { authorization: `Bearer ${key}` } });
  } catch (error) {
    throw new VettedError('SERVICE_UNAVAILABLE', `${held} but does not answer (${(error as Error).message}); stop it and run the backup again (it then reads --data-dir itself)`, { field: 'api', cause: error });
  }
  if (!response.ok) {
    const problem = (await response.json().catch(() => ({}))) as { detail?: string };
    const field = response.status === 401 || response.status === 403 ? 'api-key' : 'api';
    throw new VettedError(response.status < 500 ? 'INVALID_REQUEST' : 'SERVICE_UNAVAILABLE', `${held} refused the backup (${response.status}: ${problem.detail ?? response.statusText})`, { field });
  }
  return Buffer.from(await response.arrayBuffer());
}
