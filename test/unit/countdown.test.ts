import { describe, expect, it } from 'vitest';
import type { PendingReview, PolicySpec } from '../../src/generated/contracts.ts';
import { autoApproveCountdown } from '../../src/review/countdown.ts';

const review = (overrides: Partial<PendingReview> = {}) => ({
  issues: [],
  actions: [{ id: 'approve', label: 'Approve' }, { id: 'reject', label: 'Reject' }],
  ...overrides,
}) as PendingReview;
const allowing: PolicySpec = { mode: 'require_human', autoApproveCountdown: true };

describe('autoApproveCountdown', () => {
  it('allows ten seconds when the policy allows it and nothing blocks', () => {
    expect(autoApproveCountdown(review({ issues: [{ path: '/seed', code: 'provenance', message: 'm', severity: 'warning', suggestion: 's' } as never] }), allowing)).toEqual({ allowed: true, seconds: 10 });
  });

  it('says why not: the policy, a blocking issue, a quorum, no approve action', () => {
    expect(autoApproveCountdown(review(), { mode: 'require_human' })).toEqual({ allowed: false, because: 'policy' });
    expect(autoApproveCountdown(review({ issues: [{ path: '/width', code: 'maximum', message: 'm', severity: 'blocking', suggestion: 's' } as never] }), allowing)).toEqual({ allowed: false, because: 'blocking_issues' });
    expect(autoApproveCountdown(review({ quorum: 2, approvals: [] }), allowing)).toEqual({ allowed: false, because: 'quorum' });
    expect(autoApproveCountdown(review({ actions: [{ id: 'reject', label: 'Reject' }] }), allowing)).toEqual({ allowed: false, because: 'no_approve_action' });
  });
});
