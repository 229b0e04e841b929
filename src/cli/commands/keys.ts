/** `vetted keys`: API keys, each bound to a tenant and a role, and a person's key to that person. */
import type { Command } from 'commander';
import { ROLES } from '../../auth/api-keys.ts';
import { VettedError } from '../../errors.ts';
import type { System } from '../../system.ts';
import { action } from '../action.ts';
import { parseChoice } from '../option-parsers.ts';
import { apiClientFor, onStore, withApiOptions, type ThroughApiOptions } from '../through-api.ts';
import { createKeyThroughApi, listKeysThroughApi, printCreated, printKeys, revokeKeyThroughApi } from './keys-through-api.ts';

export interface CreateKeyOptions extends ThroughApiOptions {
  tenant?: string;
  role?: string;
  reviewer?: string;
  override?: boolean;
  assign?: boolean;
  label?: string;
}

export function registerKeyCommands(program: Command): void {
  const keys = program.command('keys').description("API keys: each bound to a tenant and a role (submitter, reviewer, admin), and a person's key to that person");
  withApiOptions(
    keys
      .command('create')
      .description("Create a key and print it once (only its hash is stored; through a running API: for its key's tenant)")
      .option('--reviewer <id>', "a person's key (rv_…, from `vetted reviewers add`): their tenant and role unless given")
      .option('--tenant <id>', 'the tenant the key acts for (required without --reviewer; through the API, the admin key\'s own)')
      .option('--role <role>', `one of ${ROLES.join(', ')} (required without --reviewer)`)
      .option('--override', 'may approve payloads that still have blocking issues')
      .option('--assign', 'may assign, reassign and delegate reviews (reviews:assign)')
      .option('--label <text>', 'a note to recognise the key by'),
  ).action(
    action(async (options: CreateKeyOptions) => {
      const api = await apiClientFor(options);
      if (api) return createKeyThroughApi(api, options);
      await onStore((system) => createKey(system, options));
    }),
  );
  withApiOptions(keys.command('list').description("List keys (ids, tenants, roles, people; never secrets; through a running API: its key's tenant's)")).action(
    action(async (options: ThroughApiOptions) => {
      const api = await apiClientFor(options);
      if (api) return printKeys(await listKeysThroughApi(api));
      await onStore(async (system) => printKeys(await system.apiKeys.list()));
    }),
  );
  withApiOptions(keys.command('revoke <id>').description('Revoke a key (takes effect within seconds; through a running API, at once there)')).action(
    action(async (id: string, options: ThroughApiOptions) => {
      const api = await apiClientFor(options);
      if (api) await revokeKeyThroughApi(api, id);
      else {
        await onStore(async (system) => {
          if (!(await system.apiKeys.revoke(id))) throw new VettedError('INVALID_REQUEST', `No key ${id}`, { field: 'id' });
        });
      }
      console.log(`revoked ${id}`);
    }),
  );

}

/** What a new key is made of, as the key store takes it. */
type NewKey = Parameters<System['apiKeys']['create']>[0];

async function createKey(system: System, options: CreateKeyOptions): Promise<void> {
  const reviewer = options.reviewer === undefined ? undefined : await system.reviewers.get(options.reviewer);
  if (options.reviewer !== undefined && (!reviewer || reviewer.removedAt)) throw new VettedError('INVALID_REQUEST', `--reviewer ${options.reviewer}: no such reviewer (see \`vetted reviewers list\`)`, { field: 'reviewer' });
  const tenantId = options.tenant ?? reviewer?.tenantId;
  const roleText = options.role ?? reviewer?.role;
  if (tenantId === undefined) throw new VettedError('INVALID_REQUEST', '--tenant is required (or --reviewer, whose tenant it takes)', { field: 'tenant' });
  if (roleText === undefined) throw new VettedError('INVALID_REQUEST', '--role is required (or --reviewer, whose role it takes)', { field: 'role' });
  const role = parseChoice('--role', roleText, ROLES);
  const permissions: NewKey['permissions'] = [...(options.override ? ['override' as const] : []), ...(options.assign ? ['reviews:assign' as const] : [])];
  const { key, row } = await system.apiKeys.create({ tenantId, role, permissions, label: options.label, reviewerId: reviewer?.id });
  printCreated(key, row, reviewer?.name);
}
