/**
 * `vetted retention` (per-tenant settings, on the store or through a running API's /api/retention) and
 * `vetted purge` (src/retention/purge.ts).
 */
import { userInfo } from 'node:os';
import type { Command } from 'commander';
import { VettedError } from '../../errors.ts';
import { changeRetention, describeRetention, MAX_DOCUMENTS_DAYS, retentionOf, retentionView, type RetentionChange, type RetentionView } from '../../retention/settings.ts';
import { textTable } from '../../shadow/report-format.ts';
import { action, withSystem } from '../action.ts';
import { parseInteger, parseTenant } from '../option-parsers.ts';
import { apiClientFor, onStore, keyTenant, requireTenant, withApiOptions, type ThroughApiOptions } from '../through-api.ts';

interface SetOptions extends ThroughApiOptions {
  tenant?: string;
  documentsDays?: string;
  keepForever?: boolean;
  maskPii?: boolean;
}

export function registerRetentionCommands(program: Command): void {
  const retention = program.command('retention').description("Per-tenant retention: how long run documents are kept, and PII masking of stored text");
  withApiOptions(
    retention
      .command('set')
      .description("Set a tenant's retention (options not given keep their value)")
      .option('--tenant <id>', "tenant (required on the store; through a running API, the key's own)")
      .option('--documents-days <n>', 'purge the documents of runs that ended more than n days ago (the audit trail stays)')
      .option('--keep-forever', 'never purge documents')
      .option('--mask-pii', 'mask email addresses and phone numbers in the prompt and conversation of new requests')
      .option('--no-mask-pii', 'store them as sent'),
  ).action(action(setRetention));
  withApiOptions(retention.command('list').description("Every tenant with a retention setting (through a running API: the key's tenant, if it has one)")).action(
    action(async (options: ThroughApiOptions) => {
      const api = await apiClientFor(options);
      if (api) {
        const mine = await api.get<RetentionView>('/api/retention');
        return printRetentionList(mine.updatedBy === null ? [] : [mine]);
      }
      await onStore(async (system) => printRetentionList((await system.retention.list()).map((row) => retentionView(row.tenantId, row))));
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
  const tenant = options.tenant === undefined ? undefined : parseTenant(options.tenant);
  if (options.documentsDays !== undefined && options.keepForever) {
    throw new VettedError('INVALID_REQUEST', '--documents-days and --keep-forever contradict each other; give one', { field: 'documentsDays' });
  }
  const days = options.documentsDays === undefined ? undefined : parseInteger('--documents-days', options.documentsDays, { min: 1, max: MAX_DOCUMENTS_DAYS });
  const change: RetentionChange = {
    ...(options.keepForever ? { documentsDays: null } : days !== undefined ? { documentsDays: days } : {}),
    ...(options.maskPii !== undefined ? { maskPii: options.maskPii } : {}),
  };
  // Nothing to change prints the settings as they are, and records nothing.
  const unchanged = Object.keys(change).length === 0;
  const api = await apiClientFor(options);
  if (api) {
    await keyTenant(api, tenant);
    return console.log(describeRetention(unchanged ? await api.get<RetentionView>('/api/retention') : await api.patch<RetentionView>('/api/retention', change)));
  }
  const tenantId = requireTenant(tenant);
  await onStore(async (system) => {
    const view = unchanged ? await retentionOf(system.retention, tenantId) : await changeRetention(system.retention, tenantId, change, `cli:${userInfo().username}`);
    console.log(describeRetention(view));
  });
}

function printRetentionList(rows: readonly RetentionView[]): void {
  process.stdout.write(textTable(['tenant', 'documents days', 'mask pii', 'updated by'], rows.map((row) => [row.tenantId, row.documentsDays ?? 'forever', row.maskPii ? 'yes' : 'no', row.updatedBy ?? ''])));
}
