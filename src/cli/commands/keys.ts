/** `vetted keys` (API keys) and `vetted reviewers` (the people who decide). */
import type { Command } from 'commander';
import { ROLES } from '../../auth/api-keys.ts';
import { VettedError } from '../../errors.ts';
import type { System } from '../../system.ts';
import { action, withSystem } from '../action.ts';
import { parseChoice } from '../option-parsers.ts';

interface CreateKeyOptions {
  tenant?: string;
  role?: string;
  reviewer?: string;
  override?: boolean;
  label?: string;
}

export function registerKeyCommands(program: Command): void {
  const keys = program.command('keys').description("API keys: each bound to a tenant and a role (submitter, reviewer, admin), and a person's key to that person");
  keys
    .command('create')
    .description('Create a key and print it once (only its hash is stored)')
    .option('--reviewer <id>', "a person's key (rv_…, from `vetted reviewers add`): their tenant and role unless given")
    .option('--tenant <id>', 'the tenant the key acts for (required without --reviewer)')
    .option('--role <role>', `one of ${ROLES.join(', ')} (required without --reviewer)`)
    .option('--override', 'may approve payloads that still have blocking issues')
    .option('--label <text>', 'a note to recognise the key by')
    .action(action((options: CreateKeyOptions) => withSystem((system) => createKey(system, options))));
  keys
    .command('list')
    .description('List keys (ids, tenants, roles, people; never secrets)')
    .action(
      action(() =>
        withSystem(async (system) => {
          const rows = await system.apiKeys.list();
          if (rows.length === 0) return console.log('No keys. Create one with `vetted keys create --tenant t --role reviewer`.');
          console.table(rows.map((r) => ({ id: r.id, tenant: r.tenantId, role: r.role, reviewer: r.reviewerId ?? '', permissions: r.permissions.join(','), label: r.label, revoked: r.revokedAt?.toISOString() ?? '' })));
        }),
      ),
    );
  keys
    .command('revoke <id>')
    .description('Revoke a key (takes effect within seconds)')
    .action(
      action((id: string) =>
        withSystem(async (system) => {
          if (!(await system.apiKeys.revoke(id))) throw new VettedError('INVALID_REQUEST', `No key ${id}`, { field: 'id' });
          console.log(`revoked ${id}`);
        }),
      ),
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
          console.table(rows.map((r) => ({ id: r.id, tenant: r.tenantId, name: r.name, role: r.role, team: r.team ?? '', slack: r.slackUserId ?? '', email: r.email ?? '' })));
        }),
      ),
    );
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
  const permissions: NewKey['permissions'] = options.override ? ['override'] : [];
  const { key, row } = await system.apiKeys.create({ tenantId, role, permissions, label: options.label, reviewerId: reviewer?.id });
  const whose = reviewer ? `, for ${reviewer.name}` : '';
  process.stderr.write(`created key ${row.id} for tenant ${row.tenantId} (${row.role}${permissions.length ? ', override' : ''}${whose}); it is shown once:\n`);
  console.log(key);
}
