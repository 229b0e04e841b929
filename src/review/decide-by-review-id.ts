/**
 * Deciding a review named by its id alone (the MCP tool `record_decision`; the HTTP route names the run as
 * well). The rules are decide()'s: the pending review, its payload hash, blocking issues, claims, quorum. What
 * this adds is the answer for a review that is no longer pending: it was decided (or expired, or cancelled),
 * so a second decision is a conflict with what happened, not a review that does not exist.
 */
import type { DecisionActor } from '../review-model/plan-decision.ts';
import { decide, type DecideResult } from './decide-on-run.ts';
import { getReview, type ReviewReader } from './review-queue.ts';
import { VettedError } from '../errors.ts';

export interface DecideReviewInput {
  reviewId: string;
  tenantId: string;
  /** The decision as received (the Decision contract: reviewId, action, payloadHash, edits, reason, override). */
  body: unknown;
  actor: DecisionActor;
}

/**
 * @throws VettedError REVIEW_NOT_FOUND (unknown, or another tenant's); REVIEW_STALE when the review already
 *   ended; otherwise what decide() throws (PAYLOAD_HASH_MISMATCH, BLOCKING_ISSUES, EDIT_INVALID, ...).
 */
export async function decideReview(reader: ReviewReader, input: DecideReviewInput): Promise<DecideResult> {
  const found = await getReview(reader, input.tenantId, input.reviewId);
  if (found.state !== 'pending') {
    const closing = found.decisions.at(-1)?.decision;
    const by = closing ? ` (${closing.action} by ${closing.actor} at ${closing.at.toISOString()})` : '';
    throw new VettedError('REVIEW_STALE', `Review ${input.reviewId} is no longer pending: it was ${found.state}${by}; nothing was changed`, {
      field: 'reviewId',
      details: { reviewStatus: found.state, runId: found.run.id },
    });
  }
  // Decisions through a review id are bound to the payload the decider saw, as on the HTTP API.
  return decide(reader, { runId: found.run.id, tenantId: input.tenantId, body: input.body, actor: input.actor, requirePayloadHash: true });
}
