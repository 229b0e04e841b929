/**
 * `vetted assign` (give a pending review to a person, reassign or delegate it, or take the assignment away) and
 * `vetted reviewers set-unavailable|set-available` (auto-assignment skips whoever is away). On the store they
 * act as the operator; through a running API, as its key (which needs reviews:assign).
 */
import { userInfo } from 'node:os';
import type { Command } from 'commander';
import { ROLE_PERMISSIONS, type Principal } from '../../auth/api-keys.ts';
import { VettedError } from '../../errors.ts';
import { action } from '../action.ts';
import { apiClientFor, onStore, withApiOptions, type ThroughApiOptions } from '../through-api.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const REVIEWER_ID = /^rv_[a-z0-9]{12}$/;

interface AssignOptions extends ThroughApiOptions {
  to: string;
  reason?: string;
}

export function registerAssignCommands(program: Command): void {
  withApiOptions(
    program
      .command('assign <reviewId>')
      .description("Assign a pending review to a person (rv_…, from `vetted reviewers list`), reassign it, delegate one assigned to you (through the API with your key), or --to none to take the assignment away")
      .requiredOption('--to <reviewer>', 'rv_… or none')
      .option('--reason <text>', 'why (kept in the audit trail)'),
  ).action(
    action(async (reviewId: string, options: AssignOptions) => {
      if (!UUID.test(reviewId)) throw new VettedError('INVALID_ID', `"${reviewId}" is not a review id (a UUID)`, { field: 'reviewId' });
      const to = options.to === 'none' ? null : options.to;
      if (to !== null && !REVIEWER_ID.test(to)) throw new VettedError('INVALID_REQUEST', '--to must be a reviewer id such as rv_0a1b2c3d4e5f, or none', { field: 'to' });
      const api = await apiClientFor(options);
      if (api) {
        const answer = await api.post<{ assignedTo: string | null }>(`/api/reviews/${reviewId}/assign`, { reviewer: to, ...(options.reason ? { reason: options.reason } : {}) });
        return console.log(`review ${reviewId} is assigned to ${answer.assignedTo ?? 'nobody'}`);
      }
      await onStore(async (system) => {
        const { runOfPendingReview } = await import('../../review/claims.ts');
        const { assignReview } = await import('../../review/assignment.ts');
        const run = await runOfPendingReview(system, reviewId);
        const operator: Principal = { keyId: 'cli', tenantId: run.tenantId, role: 'admin', permissions: new Set(ROLE_PERMISSIONS.admin) };
        const moved = await assignReview(system, { reviewId, caller: operator, to, reason: options.reason, actor: `cli:${userInfo().username}` });
        console.log(`review ${reviewId} is assigned to ${moved.assignedTo ?? 'nobody'}`);
      });
    }),
  );
}

/** `vetted reviewers set-unavailable <id>` and `set-available <id>`, under the `reviewers` command. */
export function registerAvailabilityCommands(reviewers: Command): void {
  for (const [name, available] of [['set-unavailable', false], ['set-available', true]] as const) {
    withApiOptions(
      reviewers
        .command(`${name} <reviewerId>`)
        .description(available ? 'Mark a person back: auto-assignment gives them reviews again' : 'Mark a person away: auto-assignment skips them (reviews already assigned stay theirs until reassigned)'),
    ).action(
      action(async (reviewerId: string, options: ThroughApiOptions) => {
        if (!REVIEWER_ID.test(reviewerId)) throw new VettedError('INVALID_REQUEST', 'the reviewer id must look like rv_0a1b2c3d4e5f (see `vetted reviewers list`)', { field: 'reviewerId' });
        const api = await apiClientFor(options);
        if (api) {
          const row = await api.put<{ name: string; available: boolean }>(`/api/reviewers/${reviewerId}/availability`, { available });
          return console.log(`${row.name} is ${row.available ? 'available' : 'unavailable'}`);
        }
        await onStore(async (system) => {
          const person = await system.reviewers.get(reviewerId);
          const row = person && (await system.reviewers.setAvailable(person.tenantId, reviewerId, available));
          if (!row) throw new VettedError('REVIEWER_NOT_FOUND', `No reviewer ${reviewerId} (see \`vetted reviewers list\`)`, { field: 'reviewerId' });
          console.log(`${row.name} is ${available ? 'available' : 'unavailable'}`);
        });
      }),
    );
  }
}
