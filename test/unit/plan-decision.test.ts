import { describe, expect, it } from 'vitest';
import { isVettedError } from '../../src/errors.ts';
import type { Decision } from '../../src/generated/contracts.ts';
import { planDecision, type PlanDecisionInput } from '../../src/review-model/plan-decision.ts';
import { RESUME_ROUTES, reviewActions } from '../../src/review-model/resume-routing.ts';
import { candidate, issue, pendingReview, tinySchema } from '../support/fixtures.ts';

const reviewer = { id: 'alice', canOverride: false };
const now = new Date('2026-01-01T12:00:00Z');

function plan(decision: Partial<Decision>, overrides: Partial<PlanDecisionInput> = {}) {
  const review = overrides.pendingReview ?? pendingReview();
  return planDecision({
    status: 'awaiting_human',
    pendingReview: review,
    candidate: review?.candidate ?? null,
    schema: tinySchema,
    decision: { reviewId: review?.reviewId ?? 'x', action: 'approve', ...decision } as Decision,
    actor: reviewer,
    now,
    ...overrides,
  });
}

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return isVettedError(error) ? `${error.code}:${error.field}` : String(error);
  }
  return undefined;
}

describe('planDecision', () => {
  it('approve → execute', () => {
    expect(plan({ action: 'approve' })).toEqual({ route: 'execute', override: false, newExecutionStep: false });
  });

  it('reject → cancel with the reason, or who rejected', () => {
    expect(plan({ action: 'reject', reason: 'off brand' })).toEqual({ route: 'cancel', reason: 'off brand' });
    expect(plan({ action: 'reject' })).toEqual({ route: 'cancel', reason: 'Rejected by alice' });
  });

  it('edit → validate with the edited payload, human_edit provenance, null removes a field', () => {
    const result = plan({ action: 'edit', edits: { width: 512, image: 'https://x.test/a.png' } });
    expect(result.route).toBe('validate');
    if (result.route !== 'validate') return;
    expect(result.candidate.payload).toEqual({ prompt: 'a cat', width: 512, image: 'https://x.test/a.png' });
    expect(result.candidate.provenance.width?.source).toBe('human_edit');
    const removed = plan({ action: 'edit', edits: { width: null } });
    expect(removed.route === 'validate' && removed.candidate.payload).toEqual({ prompt: 'a cat' });
  });

  it.each([
    [{ action: 'edit', edits: { height: 5 } }, 'EDIT_INVALID:edits.height'],
    [{ action: 'edit', edits: { width: 99999 } }, 'EDIT_INVALID:edits.width'],
    [{ action: 'edit', edits: { style: 'oil' } }, 'EDIT_INVALID:edits.style'],
    [{ action: 'edit', edits: { prompt: null } }, 'EDIT_INVALID:edits.prompt'],
    [{ action: 'edit', edits: {} }, 'EDIT_INVALID:edits'],
    [{ action: 'edit', edits: { image: 'ftp://x.test/a.png' } }, 'EDIT_INVALID:edits.image'],
    [{ action: 'edit', edits: { image: 'file:///etc/passwd' } }, 'EDIT_INVALID:edits.image'],
    [{ action: 'approve', edits: { width: 512 } }, 'INVALID_REQUEST:edits'],
    [{ action: 'retry' }, 'INVALID_REQUEST:action'],
    [{ reviewId: '22222222-2222-4222-8222-222222222222' }, 'REVIEW_STALE:reviewId'],
    [{ payloadHash: 'f'.repeat(64) }, 'PAYLOAD_HASH_MISMATCH:payloadHash'],
  ])('refuses %j with %s', (decision, expected) => {
    expect(codeOf(() => plan(decision as Partial<Decision>))).toBe(expected);
  });

  it('refuses a run that is not awaiting a decision, and an expired review', () => {
    expect(codeOf(() => plan({}, { status: 'completed' }))).toBe('RUN_STATE_CONFLICT:reviewId');
    expect(codeOf(() => plan({}, { now: new Date('2026-01-03T00:00:00Z') }))).toBe('REVIEW_STALE:reviewId');
  });

  it('refuses approval over blocking issues unless the reviewer may override', () => {
    const review = pendingReview({ issues: [issue('missing_required', '/image')] });
    expect(codeOf(() => plan({ action: 'approve' }, { pendingReview: review }))).toBe('BLOCKING_ISSUES:action');
    expect(codeOf(() => plan({ action: 'approve', override: true }, { pendingReview: review }))).toBe('FORBIDDEN:override');
    expect(plan({ action: 'approve', override: true }, { pendingReview: review, actor: { id: 'admin', canOverride: true } })).toEqual({
      route: 'execute', override: true, newExecutionStep: false,
    });
  });

  it('says so when override is asked for on a review with nothing to override', () => {
    const clean = pendingReview({ issues: [] });
    expect(() => plan({ action: 'approve', override: true }, { pendingReview: clean })).toThrow(/no blocking issues: approve without it/);
  });

  it('counts distinct approvals towards a quorum', () => {
    const review = pendingReview({ quorum: 2, approvals: [] });
    const first = plan({ action: 'approve' }, { pendingReview: review });
    expect(first.route).toBe('await_quorum');
    const afterFirst = first.route === 'await_quorum' ? first.review : review;
    expect(afterFirst.approvals).toEqual(['alice']);
    expect(codeOf(() => plan({ action: 'approve' }, { pendingReview: afterFirst }))).toBe('DECISION_CONFLICT:reviewId');
    expect(plan({ action: 'approve' }, { pendingReview: afterFirst, actor: { id: 'bob', canOverride: false } }).route).toBe('execute');
  });

  it('response review: approve completes, retry runs a new execution step', () => {
    const review = pendingReview({ checkpoint: 'response_review', reason: 'response_review' });
    expect(plan({ action: 'approve' }, { pendingReview: review })).toEqual({ route: 'complete' });
    expect(plan({ action: 'retry' }, { pendingReview: review })).toEqual({ route: 'execute', override: false, newExecutionStep: true });
    expect(codeOf(() => plan({ action: 'edit', edits: { width: 1 } }, { pendingReview: review }))).toBe('INVALID_REQUEST:action');
  });
});

describe('resume routing', () => {
  it('offers exactly the actions the table allows at each checkpoint', () => {
    for (const checkpoint of Object.keys(RESUME_ROUTES) as (keyof typeof RESUME_ROUTES)[]) {
      expect(reviewActions(checkpoint, true, true).map((o) => o.id)).toEqual(Object.keys(RESUME_ROUTES[checkpoint]));
    }
    // Only a text output can be edited.
    expect(reviewActions('response_review').map((o) => o.id)).not.toContain('edit_text');
    expect(RESUME_ROUTES.payload_review.approve).toBe('execute');
    expect(RESUME_ROUTES.error_recovery.retry).toBe('build');
  });

  it('keeps candidate untouched when planning', () => {
    const review = pendingReview();
    const before = JSON.stringify(review.candidate);
    plan({ action: 'edit', edits: { width: 256 } }, { pendingReview: review, candidate: review.candidate ?? candidate({}) });
    expect(JSON.stringify(review.candidate)).toBe(before);
  });
});

describe('error recovery without a candidate (the builder failed)', () => {
  const review = pendingReview({ checkpoint: 'error_recovery', reason: 'builder_failed', kind: 'error_recovery', candidate: null, issues: [] });

  it('offers retry, edit and reject, not approve', () => {
    expect(reviewActions('error_recovery', false).map((o) => o.id)).toEqual(['edit', 'retry', 'reject']);
  });

  it('sends edits and retries back to the builder, and refuses an approval', () => {
    expect(plan({ action: 'edit', edits: { width: 512 } }, { pendingReview: review, candidate: null })).toEqual({ route: 'build', edits: { width: 512 } });
    expect(plan({ action: 'retry' }, { pendingReview: review, candidate: null })).toEqual({ route: 'build', edits: {} });
    expect(codeOf(() => plan({ action: 'approve' }, { pendingReview: review, candidate: null }))).toBe('RUN_STATE_CONFLICT:action');
  });
});

describe('an execution the provider refused as too many requests', () => {
  const refused = { path: '', code: 'execution_error', message: 'Replicate rate-limited the prediction (429)', severity: 'blocking', suggestion: 'Retry once the service is healthy, or reject the run.' } as const;
  const review = pendingReview({ checkpoint: 'error_recovery', reason: 'provider_throttled', kind: 'error_recovery', issues: [refused] });

  it('approve or retry runs the same payload again as a new ledger step, the refusal being no blocking issue of the payload', () => {
    expect(plan({ action: 'approve' }, { pendingReview: review })).toEqual({ route: 'execute', override: false, newExecutionStep: true });
    expect(plan({ action: 'retry' }, { pendingReview: review })).toEqual({ route: 'execute', override: false, newExecutionStep: true });
    expect(plan({ action: 'reject' }, { pendingReview: review }).route).toBe('cancel');
  });
});

describe('an execution whose outcome is unknown', () => {
  const review = pendingReview({ checkpoint: 'error_recovery', reason: 'execution_uncertain', kind: 'error_recovery' });

  it('approve or retry runs it again as a new ledger step, never the same one', () => {
    expect(plan({ action: 'approve' }, { pendingReview: review })).toEqual({ route: 'execute', override: false, newExecutionStep: true });
    expect(plan({ action: 'retry' }, { pendingReview: review })).toEqual({ route: 'execute', override: false, newExecutionStep: true });
    expect(plan({ action: 'reject' }, { pendingReview: review }).route).toBe('cancel');
  });
});
