/**
 * An admin managing the tenant's people (POST/GET/DELETE /api/reviewers, and `vetted reviewers` on the store or
 * through a running API): people are always the caller's tenant's, and a removed person keeps their row, so the
 * audit trail still names who decided, while their keys are revoked and nothing reaches them any more.
 */
import type { Principal } from './api-keys.ts';
import type { ReviewerRow, Role } from './key-rows.ts';
import { isVettedError, VettedError } from '../errors.ts';

/** What removing a person came to, as the reviewer store reports it. */
export type Removal =
  | { kind: 'removed'; row: ReviewerRow; revokedKeys: string[] }
  | { kind: 'missing' }
  | { kind: 'assigned'; reviews: number }
  | { kind: 'last-admin'; keyId: string };

/** What the reviewer admin needs of the reviewer store (the roots hand it the system's). */
export interface ReviewerAdminStore {
  create(input: { tenantId: string; name: string; role: Role; team?: string; slackUserId?: string; email?: string }): Promise<ReviewerRow>;
  list(tenantId?: string): Promise<ReviewerRow[]>;
  remove(tenantId: string, id: string): Promise<Removal>;
}

/** The body of POST /api/reviewers, as the route's schema lets it through. */
export interface NewReviewerBody {
  name: string;
  role: Role;
  team?: string;
  slackUserId?: string;
  email?: string;
  /** Optional: when given, it must be the caller's own tenant (the CLI sends its --tenant, so a typo is not silently ignored). */
  tenantId?: string;
}

/** A person as an admin sees them: how they are reached too. */
export function reviewerAdminView(row: ReviewerRow) {
  return {
    id: row.id, tenantId: row.tenantId, name: row.name, role: row.role, team: row.team, available: row.available,
    slackUserId: row.slackUserId, email: row.email, createdAt: row.createdAt.toISOString(),
  };
}

export type ReviewerAdminView = ReturnType<typeof reviewerAdminView>;

/**
 * Adds a person to the caller's tenant.
 * @throws VettedError INVALID_REQUEST naming `tenantId`, `name`, `role`, `team`, `slackUserId` or `email`.
 */
export async function addReviewerFor(store: ReviewerAdminStore, caller: Principal, body: NewReviewerBody): Promise<ReviewerAdminView> {
  assertOwnTenant(caller, body.tenantId, 'A person is added to');
  const row = await store.create({ tenantId: caller.tenantId, name: body.name, role: body.role, team: body.team, slackUserId: body.slackUserId, email: body.email }).catch((error: unknown) => {
    // The store names the CLI's option; the API's field is slackUserId.
    if (isVettedError(error) && error.field === 'slackUser') throw new VettedError(error.code, error.message.replace(/^slack-user/, 'slackUserId'), { field: 'slackUserId', cause: error });
    throw error;
  });
  return reviewerAdminView(row);
}

/** The caller's tenant's people (removed ones are not listed). */
export async function listReviewersFor(store: ReviewerAdminStore, caller: Principal, tenantId?: string): Promise<ReviewerAdminView[]> {
  assertOwnTenant(caller, tenantId, 'People are listed for');
  return (await store.list(caller.tenantId)).map(reviewerAdminView);
}

/**
 * Removes one of the tenant's people and revokes their keys.
 * @throws VettedError REVIEWER_NOT_FOUND, REVIEWER_HAS_REVIEWS (reassign them first), LAST_ADMIN_KEY.
 */
export async function removeReviewer(store: ReviewerAdminStore, tenantId: string, id: string): Promise<{ reviewer: ReviewerAdminView; revokedKeys: string[] }> {
  const removal = await store.remove(tenantId, id);
  switch (removal.kind) {
    case 'removed':
      return { reviewer: reviewerAdminView(removal.row), revokedKeys: removal.revokedKeys };
    case 'missing':
      throw new VettedError('REVIEWER_NOT_FOUND', `The tenant has no reviewer ${id} (see \`vetted reviewers list\`)`, { field: 'id' });
    case 'assigned':
      throw new VettedError('REVIEWER_HAS_REVIEWS', `Reviewer ${id} still has ${removal.reviews} pending review(s) assigned: reassign them first (\`vetted assign <reviewId> --to <reviewer>\` or --to none), then remove them`, {
        field: 'id',
        details: { assignedReviews: removal.reviews },
      });
    case 'last-admin':
      throw new VettedError('LAST_ADMIN_KEY', `Reviewer ${id} holds the tenant's last admin key (${removal.keyId}): removing them would leave nobody able to manage keys or people. Create another admin key first`, { field: 'id' });
  }
}

function assertOwnTenant(caller: Principal, tenantId: string | undefined, what: string): void {
  if (tenantId !== undefined && tenantId !== caller.tenantId) {
    throw new VettedError('INVALID_REQUEST', `${what} the caller's own tenant (${caller.tenantId}), not ${tenantId}`, { field: 'tenantId' });
  }
}
