/**
 * What a committed move adds to the process's metrics (observability/metrics.ts): a run that ended (by
 * outcome), a review raised (by checkpoint and reason), a validation that found blocking issues or example
 * leaks, the time a person took to decide, the fields their edits changed, a review's SLA steps (breaches),
 * and the time to a review's first action. Called by commit.ts after the write, so a move that missed its
 * compare-and-set counts nothing; none of it reads the store.
 */
import { INLINE_MODEL_LABEL, runLabels } from '../observability/metrics.ts';
import type { Engine } from './engine.ts';
import type { Move } from './moves.ts';
import type { RunEventType } from '../generated/contracts.ts';
import type { Committed, ReviewEventCount, RunRow } from './store.ts';

const END_STATUSES = new Set(['completed', 'failed', 'cancelled', 'expired']);

export function observeMove(engine: Engine, move: Move, moved: RunRow): void {
  const labels = runLabels(moved);
  if (move.kind !== 'start' && END_STATUSES.has(moved.status) && !END_STATUSES.has(move.run.status)) {
    engine.metrics.runOutcomes.inc({ ...labels, outcome: moved.status });
  }
  if (move.kind === 'park') {
    const { why, issues } = move.park;
    engine.metrics.reviewsRaised.inc({ ...labels, checkpoint: why.checkpoint, reason: why.reason });
    // Only the validate stage's issues are about the payload (an error-recovery park carries the stage's error).
    if (move.run.stage === 'validate') {
      const blocking = issues.filter((issue) => issue.severity === 'blocking');
      if (blocking.length > 0) engine.metrics.invalidPayloads.inc(labels);
      const leaks = blocking.filter((issue) => issue.code === 'example_leak').length;
      if (leaks > 0) engine.metrics.exampleLeaks.inc(labels, leaks);
    }
  }
  if ((move.kind === 'remind' || move.kind === 'escalate') && move.run.pendingReview) {
    const review = move.run.pendingReview;
    engine.metrics.reviewSlaBreaches.inc({ tenant: moved.tenantId, team: engine.metrics.teamLabel(review.team), checkpoint: review.checkpoint, step: move.kind });
  }
  if (move.kind === 'decide' && move.decision.plan.route !== 're_ask' && move.run.pendingReview) {
    const review = move.run.pendingReview;
    const waitedSeconds = (engine.clock.now().getTime() - Date.parse(review.createdAt)) / 1000;
    engine.metrics.humanLatency.observe({ ...labels, checkpoint: review.checkpoint, action: move.decision.action }, Math.max(0, waitedSeconds));
    engine.metrics.reviewTimeToDecision.observe({ tenant: moved.tenantId, checkpoint: review.checkpoint }, Math.max(0, waitedSeconds));
    // An inline model's field names are the caller's choice: counted under one label, never a series each.
    for (const field of Object.keys(move.decision.edits ?? {})) {
      engine.metrics.reviewCorrections.inc({ ...labels, field: labels.model === INLINE_MODEL_LABEL ? '*' : field });
    }
  }
}

/** The actions a person takes on a review; a chat reply that was not understood (re_ask) is none. */
const ACTION_EVENTS: readonly RunEventType[] = ['review.claimed', 'review.decided'];

/** The run as a person's action found it: a claim, or a decision that is not a re-ask; undefined for any other move. */
function actedOn(move: Move): RunRow | undefined {
  return move.kind === 'claim' || (move.kind === 'decide' && move.decision.plan.route !== 're_ask') ? move.run : undefined;
}

/**
 * What the move's write must count for the time to first action (StoreWrite.countPrior): the earlier actions
 * on its review. A review someone holds or approved is known not to be new without counting; otherwise only
 * the trail can say (a claim released, or taken away by an escalation, leaves no mark on the run).
 */
export function firstActionCount(move: Move): ReviewEventCount | undefined {
  const before = actedOn(move);
  const review = before?.pendingReview;
  if (!before || !review || before.claimedBy || (review.approvals?.length ?? 0) > 0) return undefined;
  return { reviewId: review.reviewId, types: ACTION_EVENTS };
}

/** Time to first action: a claim or a decision with no action on its review before it (counted by its write). */
export function observeFirstAction(engine: Engine, move: Move, committed: Committed): void {
  const review = actedOn(move)?.pendingReview;
  if (!review || committed.priorEvents !== 0) return;
  const waitedSeconds = (engine.clock.now().getTime() - Date.parse(review.createdAt)) / 1000;
  engine.metrics.reviewTimeToFirstAction.observe({ tenant: committed.run.tenantId, team: engine.metrics.teamLabel(review.team), checkpoint: review.checkpoint }, Math.max(0, waitedSeconds));
}
