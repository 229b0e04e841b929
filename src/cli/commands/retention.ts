/** `vetted retention` (per-tenant settings) and `vetted purge` (src/retention/purge.ts). */
import { userInfo } from 'node:os';
import type { Command } from 'commander';
import { VettedError } from '../../errors.ts';
import { textTable } from '../../shadow/report-format.ts';
import { action, withSystem } from '../action.ts';
import { parseInteger, parseTenant } from '../option-parsers.ts';

interface SetOptions {
  tenant: string;
  documentsDays?: string;
  keepForever?: boolean;
  maskPii?: boolean;
}

export function registerRetentionCommands(program: Command): void {
  const retention = program.command('retention').description("Per-tenant retention: how long run documents are kept, and PII masking of stored text");
  retention
    .command('set')
    .description("Set a tenant's retention (options not given keep their value)")
    .requiredOption('--tenant <id>', 'tenant')
    .option('--documents-days <n>', 'purge the documents of runs that ended more than n days ago (the audit trail stays)')
    .option('--keep-forever', 'never purge documents')
    .option('--mask-pii', 'mask email addresses and phone numbers in the prompt and conversation of new requests')
    .option('--no-mask-pii', 'store them as sent')
    .action(action(setRetention));
  retention
    .command('list')
    .description('Every tenant with a retention setting')
    .action(
      action(async () => {
        await withSystem(async (system) => {
          const rows = (await system.retention.list()).map((row) => [row.tenantId, row.documentsDays ?? 'forever', row.maskPii ? 'yes' : 'no', row.updatedBy]);
          process.stdout.write(textTable(['tenant', 'documents days', 'mask pii', 'updated by'], rows));
        });
      }),
    );

  program
    .command('purge')
    .description("Purge the documents of runs that ended longer ago than their tenant's retention.documentsDays (the maintenance worker does this every VETTED_PURGE_INTERVAL_MS)")
    .option('--tenant <id>', 'only this tenant')
    .action(
      action(async (options: { tenant?: string }) => {
        const tenantId = options.tenant === undefined ? undefined : parseTenant(options.tenant);
        await withSystem(async (system) => {
          const { purgeExpiredDocuments } = await import('../../retention/purge.ts');
          const results = await purgeExpiredDocuments(system, { tenantId });
          if (results.length === 0) console.log(tenantId ? `tenant ${tenantId} keeps its documents (no retention.documentsDays)` : 'no tenant has a retention period; set one with `vetted retention set`');
          for (const r of results) console.log(`${r.tenantId}: ${r.purged} runs purged (ended before ${r.endedBefore}, ${r.documentsDays} days)`);
        });
      }),
    );
}

async function setRetention(options: SetOptions): Promise<void> {
  const tenantId = parseTenant(options.tenant);
  if (options.documentsDays !== undefined && options.keepForever) {
    throw new VettedError('INVALID_REQUEST', '--documents-days and --keep-forever contradict each other; give one', { field: 'documentsDays' });
  }
  const days = options.documentsDays === undefined ? undefined : parseInteger('--documents-days', options.documentsDays, { min: 1, max: 36_500 });
  await withSystem(async (system) => {
    const current = await system.retention.get(tenantId);
    const row = await system.retention.upsert({
      tenantId,
      documentsDays: options.keepForever ? null : (days ?? current?.documentsDays ?? null),
      maskPii: options.maskPii ?? current?.maskPii ?? false,
      updatedBy: `cli:${userInfo().username}`,
    });
    console.log(`tenant ${row.tenantId}: documents ${row.documentsDays === null ? 'kept forever' : `purged ${row.documentsDays} days after a run ends`}; PII masking ${row.maskPii ? 'on' : 'off'}`);
  });
}
