/**
 * Assignment: who of the tenant's people a pending review is for. A team's policy may assign each new review
 * itself (policy.assignment, src/engine/commit.ts); a holder of `reviews:assign` assigns, reassigns, delegates
 * (hands on a review assigned to them) or takes an assignment away. Every change is a move bound to the
 * assignee the mover saw, so two people reassigning at once cannot both win; the loser is told who holds it now.
 */
import { actorOf, type Principal } from '../auth/api-keys.ts';
import type { ReviewerRow } from '../auth/key-rows.ts';
import { commit } from '../engine/commit.ts';
import type { Engine } from '../engine/engine.ts';
import type { AssignAction } from '../engine/moves.ts';
import type { RunRow } from '../engine/store.ts';
import { VettedError } from '../errors.ts';
import { runOfPendingReview } from './claims.ts';

/** The people a tenant's reviews may be assigned to (src/db/reviewers-repository.ts holds them). */
export interface AssignablePeople {
  get(id: string): Promise<ReviewerRow | undefined>;
  setAvailable(tenantId: string, id: string, available: boolean): Promise<ReviewerRow | undefined>;
}

export interface AssignmentDeps extends Engine {
  readonly reviewers: AssignablePeople;
}

export interface AssignInput {
  reviewId: string;
  caller: Principal;
  /** The reviewer (`rv_…`) to assign it to; null takes the assignment away. */
  to: string | null;
  reason?: string;
  /** Who the trail names, when not the caller's key or person (the operator's CLI: `cli:<user>`). */
  actor?: string;
}

const REVIEWER_ID = /^rv_[a-z0-9]{12}$/;

/** @throws VettedError FORBIDDEN without reviews:assign, REVIEWER_NOT_FOUND, INVALID_REQUEST (a submitter, someone away), ASSIGNMENT_CONFLICT */
export async function assignReview(deps: AssignmentDeps, input: AssignInput): Promise<RunRow> {
  const { caller } = input;
  if (!caller.permissions.has('reviews:assign')) {
    throw new VettedError('FORBIDDEN', 'Assigning reviews needs the reviews:assign permission (role admin, or a key created with --assign)', { field: 'reviewer' });
  }
  if (input.reason !== undefined && input.reason.length > 500) throw new VettedError('INVALID_REQUEST', 'reason must be at most 500 characters', { field: 'reason' });
  if (input.to !== null) await assertAssignable(deps, caller.tenantId, input.to);
  const run = await runOfPendingReview(deps, input.reviewId, caller.tenantId);
  if (run.assignedTo === input.to) return run;
  const moved = await commit(deps, { kind: 'assign', run, actor: input.actor ?? actorOf(caller), to: input.to, how: actionOf(run, input.to, caller), reason: input.reason });
  if (moved) return moved;
  const now = await runOfPendingReview(deps, input.reviewId, caller.tenantId);
  throw new VettedError('ASSIGNMENT_CONFLICT', `Review ${input.reviewId} was assigned to ${now.assignedTo ?? 'nobody'} meanwhile; fetch it again`, {
    field: 'reviewId',
    details: { assignedTo: now.assignedTo },
  });
}

/** Marks a person of the caller's tenant (un)available: auto-assignment skips whoever is away. */
export async function setAvailability(deps: { reviewers: AssignablePeople }, caller: Principal, reviewerId: string, available: boolean): Promise<ReviewerRow> {
  // A person may say they are away themselves; anyone else needs reviews:assign.
  if (caller.reviewer?.id !== reviewerId && !caller.permissions.has('reviews:assign')) {
    throw new VettedError('FORBIDDEN', "Marking someone else (un)available needs the reviews:assign permission", { field: 'reviewerId' });
  }
  const row = await deps.reviewers.setAvailable(caller.tenantId, reviewerId, available);
  if (!row) throw new VettedError('REVIEWER_NOT_FOUND', `The tenant has no reviewer ${reviewerId}`, { field: 'reviewerId' });
  return row;
}

async function assertAssignable(deps: AssignmentDeps, tenantId: string, reviewerId: string): Promise<void> {
  if (!REVIEWER_ID.test(reviewerId)) throw new VettedError('INVALID_REQUEST', 'reviewer must be a reviewer id such as rv_0a1b2c3d4e5f (see `vetted reviewers list`)', { field: 'reviewer' });
  const person = await deps.reviewers.get(reviewerId);
  if (!person || person.tenantId !== tenantId || person.removedAt) throw new VettedError('REVIEWER_NOT_FOUND', `The tenant has no reviewer ${reviewerId}`, { field: 'reviewer' });
  if (person.role === 'submitter') throw new VettedError('INVALID_REQUEST', `${person.name} is a submitter and cannot decide reviews`, { field: 'reviewer' });
  if (!person.available) throw new VettedError('INVALID_REQUEST', `${person.name} is marked unavailable`, { field: 'reviewer' });
}

function actionOf(run: RunRow, to: string | null, caller: Principal): AssignAction {
  if (to === null) return 'unassign';
  if (run.assignedTo === null) return 'assign';
  return caller.reviewer?.id === run.assignedTo ? 'delegate' : 'reassign';
}
