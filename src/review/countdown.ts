/**
 * The console's countdown auto-approval: when a review has nothing blocking
 * and the run's policy allows it, the card approves by itself after a short countdown the reviewer can cancel
 * or skip. The console asks the API whether it may (GET /api/reviews/:id/form answers `autoApprove`), so the
 * rule lives here once; the approval itself is an ordinary decision by the reviewer whose card counted down,
 * and the decision service still refuses an approval over blocking issues.
 */
import type { PendingReview, PolicySpec } from '../generated/contracts.ts';

/** The card counts down ten seconds. */
export const AUTO_APPROVE_COUNTDOWN_SECONDS = 10;

export type CountdownVerdict =
  | { allowed: true; seconds: number }
  | { allowed: false; because: 'policy' | 'blocking_issues' | 'no_approve_action' | 'quorum' };

/** Whether a reviewer's card may count down to approving this review, and if not, why not. */
export function autoApproveCountdown(review: PendingReview, policy: PolicySpec): CountdownVerdict {
  if (policy.autoApproveCountdown !== true) return { allowed: false, because: 'policy' };
  if (review.issues.some((issue) => issue.severity === 'blocking')) return { allowed: false, because: 'blocking_issues' };
  // Several distinct people must approve: a card approving on its own would stand in for one of them.
  if ((review.quorum ?? 1) > 1) return { allowed: false, because: 'quorum' };
  if (!(review.actions ?? []).some((action) => action.id === 'approve')) return { allowed: false, because: 'no_approve_action' };
  return { allowed: true, seconds: AUTO_APPROVE_COUNTDOWN_SECONDS };
}
