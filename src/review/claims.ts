/**
 * Claims on pending reviews: a reviewer who opens a review holds it for a while (a lease), so two people do
 * not work the same one. A claim is a move (src/engine/moves.ts) bound to the pending review and to nobody
 * else holding a live claim; deciding or replying releases it. Someone else's decision while the lease runs is
 * refused (REVIEW_CLAIMED), naming who holds it and until when.
 */
import { commit } from '../engine/commit.ts';
import type { Engine } from '../engine/engine.ts';
import type { RunRow } from '../engine/store.ts';
import { VettedError } from '../errors.ts';

/** How long a claim lasts unless the claimant asks for another time. */
export const DEFAULT_CLAIM_SECONDS = 600;

export interface ClaimInput {
  reviewId: string;
  /** A review of another tenant is "not found". */
  tenantId?: string;
  actor: string;
  ttlSeconds?: number;
}

/** The run whose pending review this is. @throws VettedError REVIEW_NOT_FOUND */
export async function runOfPendingReview(engine: Engine, reviewId: string, tenantId?: string): Promise<RunRow> {
  const [run] = await engine.store.list({ kind: 'pending_review', reviewId, tenantId });
  if (!run) throw new VettedError('REVIEW_NOT_FOUND', `No pending review ${reviewId} (it may have been decided or expired)`, { field: 'reviewId' });
  return run;
}

/** @throws VettedError REVIEW_CLAIMED when someone else's lease on the review is still running. */
export function assertClaimable(run: RunRow, actor: string, now: Date): void {
  if (!run.claimedBy || run.claimedBy === actor || !run.claimExpiresAt || run.claimExpiresAt < now) return;
  throw new VettedError('REVIEW_CLAIMED', `${run.claimedBy} is working on this review until ${run.claimExpiresAt.toISOString()}`, {
    field: 'reviewId',
    details: { claimedBy: run.claimedBy, claimExpiresAt: run.claimExpiresAt.toISOString() },
  });
}

export async function claimReview(engine: Engine, input: ClaimInput): Promise<RunRow> {
  const run = await runOfPendingReview(engine, input.reviewId, input.tenantId);
  const now = engine.clock.now();
  assertClaimable(run, input.actor, now);
  const until = new Date(now.getTime() + (input.ttlSeconds ?? DEFAULT_CLAIM_SECONDS) * 1000);
  const claimed = await commit(engine, { kind: 'claim', run, actor: input.actor, until });
  if (!claimed) return refused(engine, input);
  return claimed;
}

export async function releaseReview(engine: Engine, input: ClaimInput): Promise<RunRow> {
  const run = await runOfPendingReview(engine, input.reviewId, input.tenantId);
  assertClaimable(run, input.actor, engine.clock.now());
  const released = await commit(engine, { kind: 'release', run, actor: input.actor });
  if (!released) return refused(engine, input);
  return released;
}

/** The move missed: say why, as it stands now (someone claimed it first, or it was decided). */
async function refused(engine: Engine, input: ClaimInput): Promise<never> {
  const now = await runOfPendingReview(engine, input.reviewId, input.tenantId);
  assertClaimable(now, input.actor, engine.clock.now());
  throw new VettedError('DECISION_CONFLICT', `Review ${input.reviewId} changed while it was being claimed; fetch it again`, { field: 'reviewId' });
}
