/**
 * Who may answer a review by reply, and what a reply may decide. Reviewers (keys that may decide reviews) reply
 * as they would decide. The run's submitter (a chat app answering for its user) answers its own run's
 * clarifying questions and may always cancel, but is not a reviewer: by default its "yes" never approves a
 * payload review (require_human, low confidence...), a response review or an error recovery, and it never
 * counts toward a quorum of reviewers. The run's policy may let it approve (policy.submitterApproves), still
 * never toward a quorum of more than one. Pure rules; reply-service.ts applies them.
 */
import { VettedError } from '../errors.ts';
import type { Decision, PendingReview, PolicySpec } from '../generated/contracts.ts';

/** How the replier stands to the review: a reviewer, or the run's submitter (a key that cannot decide reviews). */
export type Replier = 'reviewer' | 'submitter';

/** @throws VettedError FORBIDDEN when a submitter replies to a run it did not submit. */
export function assertMayReply(replier: Replier, ownRun: boolean): void {
  if (replier === 'submitter' && !ownRun) {
    throw new VettedError('FORBIDDEN', "Only the run's submitter or a reviewer may answer its review by reply; this key did not submit the run", { field: 'reviewId' });
  }
}

/** @throws VettedError FORBIDDEN when a submitter's reply would decide what only reviewers decide. */
export function assertMayDecideByReply(replier: Replier, review: PendingReview, decision: Decision, policy: Pick<PolicySpec, 'submitterApproves'>): void {
  if (replier === 'reviewer' || decision.action === 'reject') return;
  const quorum = review.quorum ?? 1;
  if (quorum > 1) {
    throw new VettedError('FORBIDDEN', `A submitter's reply never counts toward a quorum of reviewers (this review needs ${quorum} distinct reviewers); a reviewer decides it`, { field: 'text' });
  }
  if (review.kind === 'clarification' || policy.submitterApproves === true) return;
  throw new VettedError(
    'FORBIDDEN',
    `A submitter's reply cannot approve a ${review.checkpoint} (${review.reason}); a reviewer decides it, or the run's policy sets submitterApproves: true. The submitter may still cancel`,
    { field: 'text' },
  );
}
