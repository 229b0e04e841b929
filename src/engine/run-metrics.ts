/**
 * What a committed move adds to the process's metrics (observability/metrics.ts): a run that ended (by
 * outcome), a review raised (by checkpoint and reason), a validation that found blocking issues or example
 * leaks, the time a person took to decide, the fields their edits changed, a review's SLA steps (breaches),
 * and the time to a review's first action. Called by commit.ts after the write, so a move that missed its
 * compare-and-set counts nothing.
 */
import { INLINE_MODEL_LABEL, runLabels } from '../observability/metrics.ts';
import type { Engine } from './engine.ts';
import type { Move } from './moves.ts';
import type { Committed, RunRow } from './store.ts';

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
const ACTION_EVENTS: ReadonlySet<string> = new Set(['review.claimed', 'review.decided']);

/**
 * Time to first action: observed on a claim or a decision that is the first on its review. A review someone
 * held or approved before is known not to be new at once; otherwise the run's trail says (one read, after the
 * commit, off the caller's path).
 */
export async function observeFirstAction(engine: Engine, move: Move, committed: Committed): Promise<void> {
  const before = move.kind === 'claim' || (move.kind === 'decide' && move.decision.plan.route !== 're_ask') ? move.run : undefined;
  const review = before?.pendingReview;
  if (!before || !review || before.claimedBy || (review.approvals?.length ?? 0) > 0) return;
  const actions = (await engine.store.events(before.id)).filter((event) => ACTION_EVENTS.has(event.type) && event.data.reviewId === review.reviewId);
  if (actions.length !== 1) return;
  const waitedSeconds = (engine.clock.now().getTime() - Date.parse(review.createdAt)) / 1000;
  engine.metrics.reviewTimeToFirstAction.observe({ tenant: committed.run.tenantId, team: engine.metrics.teamLabel(review.team), checkpoint: review.checkpoint }, Math.max(0, waitedSeconds));
}
