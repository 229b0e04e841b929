/** `vetted keys` (API keys) and `vetted reviewers` (the people who decide). */
import type { Command } from 'commander';
import { ROLES } from '../../auth/api-keys.ts';
import { VettedError } from '../../errors.ts';
import type { System } from '../../system.ts';
import { action, withSystem } from '../action.ts';
import { parseChoice } from '../option-parsers.ts';
import { apiClientFor, withApiOptions, type ThroughApiOptions } from '../through-api.ts';
import { registerAvailabilityCommands } from './assign.ts';
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
      await withSystem((system) => createKey(system, options));
    }),
  );
  withApiOptions(keys.command('list').description("List keys (ids, tenants, roles, people; never secrets; through a running API: its key's tenant's)")).action(
    action(async (options: ThroughApiOptions) => {
      const api = await apiClientFor(options);
      if (api) return printKeys(await listKeysThroughApi(api));
      await withSystem(async (system) => printKeys(await system.apiKeys.list()));
    }),
  );
  withApiOptions(keys.command('revoke <id>').description('Revoke a key (takes effect within seconds; through a running API, at once there)')).action(
    action(async (id: string, options: ThroughApiOptions) => {
      const api = await apiClientFor(options);
      if (api) await revokeKeyThroughApi(api, id);
      else {
        await withSystem(async (system) => {
          if (!(await system.apiKeys.revoke(id))) throw new VettedError('INVALID_REQUEST', `No key ${id}`, { field: 'id' });
        });
      }
      console.log(`revoked ${id}`);
    }),
  );

  const reviewers = program.command('reviewers').description('The people who decide: a name, a role and a team; decisions and quorums count people, not keys');
  reviewers
    .command('add')
    .description("Add a reviewer and print their id (give them a key with `vetted keys create --reviewer <id>`)")
    .requiredOption('--tenant <id>', 'the tenant they review for')
    .requiredOption('--name <name>', 'their name, as the audit trail shows it')
    .requiredOption('--role <role>', `one of ${ROLES.join(', ')}`)
    .option('--team <team>', 'the team whose queue they work (policy.team routes reviews to it)')
    .option('--slack-user <id>', 'their Slack user id (U…): their clicks on Approve and Reject in Slack decide as them')
    .option('--email <address>', 'their email address: a waiting-review email to it carries decision links signed for them')
    .action(
      action((options: { tenant: string; name: string; role: string; team?: string; slackUser?: string; email?: string }) =>
        withSystem(async (system) => {
          const role = parseChoice('--role', options.role, ROLES);
          const row = await system.reviewers.create({ tenantId: options.tenant, name: options.name, role, team: options.team, slackUserId: options.slackUser, email: options.email });
          process.stderr.write(`added ${row.name} (${row.role}${row.team ? `, team ${row.team}` : ''}) to tenant ${row.tenantId}\n`);
          console.log(row.id);
        }),
      ),
    );
  reviewers
    .command('list')
    .description('List reviewers')
    .option('--tenant <id>', 'one tenant (default: every tenant)')
    .action(
      action((options: { tenant?: string }) =>
        withSystem(async (system) => {
          const rows = await system.reviewers.list(options.tenant);
          if (rows.length === 0) return console.log('No reviewers. Add one with `vetted reviewers add --tenant t --name "Ada" --role reviewer`.');
          console.table(rows.map((r) => ({ id: r.id, tenant: r.tenantId, name: r.name, role: r.role, team: r.team ?? '', available: r.available, slack: r.slackUserId ?? '', email: r.email ?? '' })));
        }),
      ),
    );
  registerAvailabilityCommands(reviewers);
}

/** What a new key is made of, as the key store takes it. */
type NewKey = Parameters<System['apiKeys']['create']>[0];

async function createKey(system: System, options: CreateKeyOptions): Promise<void> {
  const reviewer = options.reviewer === undefined ? undefined : await system.reviewers.get(options.reviewer);
  if (options.reviewer !== undefined && !reviewer) throw new VettedError('INVALID_REQUEST', `--reviewer ${options.reviewer}: no such reviewer (see \`vetted reviewers list\`)`, { field: 'reviewer' });
  const tenantId = options.tenant ?? reviewer?.tenantId;
  const roleText = options.role ?? reviewer?.role;
  if (tenantId === undefined) throw new VettedError('INVALID_REQUEST', '--tenant is required (or --reviewer, whose tenant it takes)', { field: 'tenant' });
  if (roleText === undefined) throw new VettedError('INVALID_REQUEST', '--role is required (or --reviewer, whose role it takes)', { field: 'role' });
  const role = parseChoice('--role', roleText, ROLES);
  const permissions: NewKey['permissions'] = [...(options.override ? ['override' as const] : []), ...(options.assign ? ['reviews:assign' as const] : [])];
  const { key, row } = await system.apiKeys.create({ tenantId, role, permissions, label: options.label, reviewerId: reviewer?.id });
  printCreated(key, row, reviewer?.name);
}
