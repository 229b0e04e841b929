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
    .description('Write a backup of the embedded store to a file (a gzipped tar of its data directory)')
    .requiredOption('--out <file>', 'the file to write')
    .option('--data-dir <dir>', 'the embedded store', DEFAULT_DATA_DIR)
    .action(
      action(async (options: { out: string; dataDir: string }) => {
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
