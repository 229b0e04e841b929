/**
 * Several reviews decided at once (the console's bulk approve and reject, POST /api/reviews/decisions). Each
 * item is its own decision through decideReview: bound to the payload hash the person was shown, its own
 * compare-and-set and audit row, so one item lost to someone else or refused never holds up the others. The
 * answer says, per item, whether it was decided, lost (and to whom), or refused (and why).
 */
import type { DecisionActor } from '../review-model/plan-decision.ts';
import { isVettedError } from '../errors.ts';
import { VettedError } from '../errors.ts';
import { decideReview } from './decide-by-review-id.ts';
import { getReview, type ReviewReader } from './review-queue.ts';

/** The most items one request decides (each is a decision of its own). */
export const MAX_BULK_ITEMS = 50;

export interface BulkItem {
  reviewId: string;
  action: 'approve' | 'reject';
  /** The payload hash the person was shown for this review. */
  payloadHash: string;
  reason?: string;
}

export type BulkOutcome =
  | { reviewId: string; outcome: 'decided'; route: string }
  /** Someone else decided it first (or it ended otherwise): who, what, when. */
  | { reviewId: string; outcome: 'conflict'; code: string; why: string; winner: { actor: string; action: string; at: string } | null }
  | { reviewId: string; outcome: 'refused'; code: string; why: string; field?: string };

const LOST = new Set(['REVIEW_STALE', 'DECISION_CONFLICT', 'RUN_STATE_CONFLICT', 'REVIEW_CLAIMED']);

/** @throws VettedError INVALID_REQUEST for an empty or too long list, or a review named twice. */
export async function decideMany(reader: ReviewReader, input: { tenantId: string; actor: DecisionActor; items: readonly BulkItem[] }): Promise<BulkOutcome[]> {
  const { items } = input;
  if (items.length === 0 || items.length > MAX_BULK_ITEMS) throw new VettedError('INVALID_REQUEST', `items must hold 1 to ${MAX_BULK_ITEMS} decisions`, { field: 'items' });
  const seen = new Set<string>();
  items.forEach((item, index) => {
    if (seen.has(item.reviewId)) throw new VettedError('INVALID_REQUEST', `review ${item.reviewId} is named twice`, { field: `items[${index}].reviewId` });
    seen.add(item.reviewId);
  });
  const outcomes: BulkOutcome[] = [];
  // One after another: each decision is short, and the order of the trail follows the order asked.
  for (const item of items) outcomes.push(await decideOne(reader, input.tenantId, input.actor, item));
  return outcomes;
}

async function decideOne(reader: ReviewReader, tenantId: string, actor: DecisionActor, item: BulkItem): Promise<BulkOutcome> {
  const body = { reviewId: item.reviewId, action: item.action, payloadHash: item.payloadHash, ...(item.reason ? { reason: item.reason } : {}) };
  try {
    const { plan } = await decideReview(reader, { reviewId: item.reviewId, tenantId, body, actor });
    return { reviewId: item.reviewId, outcome: 'decided', route: plan.route };
  } catch (error) {
    if (!isVettedError(error)) throw error;
    if (LOST.has(error.code)) return { reviewId: item.reviewId, outcome: 'conflict', code: error.code, why: error.message, winner: await winnerOf(reader, tenantId, item.reviewId) };
    return { reviewId: item.reviewId, outcome: 'refused', code: error.code, why: error.message, ...(error.field ? { field: error.field } : {}) };
  }
}

/** The decision that closed the review (or the claim that holds it), when there is one. */
async function winnerOf(reader: ReviewReader, tenantId: string, reviewId: string): Promise<{ actor: string; action: string; at: string } | null> {
  const found = await getReview(reader, tenantId, reviewId).catch(() => undefined);
  if (!found) return null;
  if (found.state === 'pending') return found.claim ? { actor: found.claim.claimedBy, action: 'claim', at: found.claim.claimExpiresAt.toISOString() } : null;
  const closing = found.decisions.at(-1)?.decision;
  return closing ? { actor: closing.actor, action: closing.action, at: closing.at.toISOString() } : null;
}
