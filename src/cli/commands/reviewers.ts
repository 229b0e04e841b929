/**
 * `vetted reviewers add|list|remove` (and set-unavailable|set-available, src/cli/commands/assign.ts): on the
 * store, or through a running API (POST/GET/DELETE /api/reviewers) while `vetted api --embedded` holds it; what
 * they print is the same either way.
 */
import type { Command } from 'commander';
import { ROLES } from '../../auth/api-keys.ts';
import { removeReviewer, reviewerAdminView, type ReviewerAdminView } from '../../auth/reviewer-admin.ts';
import { VettedError } from '../../errors.ts';
import { action } from '../action.ts';
import { parseChoice, parseTenant } from '../option-parsers.ts';
import { apiClientFor, onStore, withApiOptions, type ThroughApiOptions } from '../through-api.ts';
import { registerAvailabilityCommands } from './assign.ts';

interface AddOptions extends ThroughApiOptions {
  tenant?: string;
  name: string;
  role: string;
  team?: string;
  slackUser?: string;
  email?: string;
}

const REVIEWER_ID = /^rv_[a-z0-9]{12}$/;

export function registerReviewerCommands(program: Command): void {
  const reviewers = program.command('reviewers').description('The people who decide: a name, a role and a team; decisions and quorums count people, not keys');
  withApiOptions(
    reviewers
      .command('add')
      .description("Add a reviewer and print their id (give them a key with `vetted keys create --reviewer <id>`; through a running API: to its key's tenant)")
      .option('--tenant <id>', "the tenant they review for (required on the store; through the API, the admin key's own)")
      .requiredOption('--name <name>', 'their name, as the audit trail shows it')
      .requiredOption('--role <role>', `one of ${ROLES.join(', ')}`)
      .option('--team <team>', 'the team whose queue they work (policy.team routes reviews to it)')
      .option('--slack-user <id>', 'their Slack user id (U…): their clicks on Approve and Reject in Slack decide as them')
      .option('--email <address>', 'their email address: a waiting-review email to it carries decision links signed for them'),
  ).action(action(addReviewer));
  withApiOptions(
    reviewers
      .command('list')
      .description("List reviewers (removed people are not listed; through a running API: its key's tenant's)")
      .option('--tenant <id>', 'one tenant (default: every tenant; through the API, it must be the key\'s own)'),
  ).action(
    action(async (options: ThroughApiOptions & { tenant?: string }) => {
      const tenantId = options.tenant === undefined ? undefined : parseTenant(options.tenant);
      const api = await apiClientFor(options);
      if (api) return printReviewers((await api.get<{ items: ReviewerAdminView[] }>(`/api/reviewers${tenantId ? `?tenantId=${encodeURIComponent(tenantId)}` : ''}`)).items);
      await onStore(async (system) => printReviewers((await system.reviewers.list(tenantId)).map(reviewerAdminView)));
    }),
  );
  withApiOptions(
    reviewers
      .command('remove <reviewerId>')
      .description('Remove a person: their keys are revoked and their Slack id and email cleared; the audit trail keeps their name. Reassign their pending reviews first'),
  ).action(
    action(async (reviewerId: string, options: ThroughApiOptions) => {
      if (!REVIEWER_ID.test(reviewerId)) throw new VettedError('INVALID_REQUEST', 'the reviewer id must look like rv_0a1b2c3d4e5f (see `vetted reviewers list`)', { field: 'reviewerId' });
      const api = await apiClientFor(options);
      if (api) return printRemoved(await api.delete(`/api/reviewers/${reviewerId}`));
      await onStore(async (system) => {
        const person = await system.reviewers.get(reviewerId);
        if (!person) throw new VettedError('REVIEWER_NOT_FOUND', `No reviewer ${reviewerId} (see \`vetted reviewers list\`)`, { field: 'reviewerId' });
        printRemoved(await removeReviewer(system.reviewers, person.tenantId, reviewerId));
      });
    }),
  );
  registerAvailabilityCommands(reviewers);
}

async function addReviewer(options: AddOptions): Promise<void> {
  const role = parseChoice('--role', options.role, ROLES);
  const tenantId = options.tenant === undefined ? undefined : parseTenant(options.tenant);
  const person = { name: options.name, role, team: options.team, slackUserId: options.slackUser, email: options.email };
  const api = await apiClientFor(options);
  if (api) return printAdded(await api.post<ReviewerAdminView>('/api/reviewers', withoutUndefined({ ...person, tenantId })));
  if (tenantId === undefined) throw new VettedError('INVALID_REQUEST', '--tenant is required (through a running API it is the admin key\'s own: give --api or --data-dir)', { field: 'tenant' });
  await onStore(async (system) => printAdded(reviewerAdminView(await system.reviewers.create({ tenantId, ...person }))));
}

/** The id on stdout (`ID=$(vetted reviewers add …)`), who was added on stderr. */
function printAdded(row: ReviewerAdminView): void {
  process.stderr.write(`added ${row.name} (${row.role}${row.team ? `, team ${row.team}` : ''}) to tenant ${row.tenantId}\n`);
  console.log(row.id);
}

function printReviewers(rows: readonly ReviewerAdminView[]): void {
  if (rows.length === 0) return console.log('No reviewers. Add one with `vetted reviewers add --tenant t --name "Ada" --role reviewer`.');
  console.table(rows.map((r) => ({ id: r.id, tenant: r.tenantId, name: r.name, role: r.role, team: r.team ?? '', available: r.available, slack: r.slackUserId ?? '', email: r.email ?? '' })));
}

function printRemoved({ reviewer, revokedKeys }: { reviewer: ReviewerAdminView; revokedKeys: readonly string[] }): void {
  console.log(`removed ${reviewer.name} (${reviewer.id}); ${revokedKeys.length ? `keys revoked: ${revokedKeys.join(', ')}` : 'they had no key in force'}`);
}

function withoutUndefined(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
}
