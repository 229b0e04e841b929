/**
 * What a committed move adds to the process's metrics (observability/metrics.ts): a run that ended (by
 * outcome), a review raised (by checkpoint and reason), a validation that found blocking issues or example
 * leaks, the time a person took to decide, and the fields their edits changed. Called by commit.ts after the
 * write, so a move that missed its compare-and-set counts nothing.
 */
import { INLINE_MODEL_LABEL, runLabels } from '../observability/metrics.ts';
import type { Engine } from './engine.ts';
import type { Move } from './moves.ts';
import type { RunRow } from './store.ts';

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
