/** `vetted decide` binds its decision to the hashes the pending review shows, only when it answers that review. */
import { describe, expect, it } from 'vitest';
import { bindDecision } from '../../src/cli/decision-binding.ts';

const shown = { reviewId: 'r1', payloadHash: 'p'.repeat(64), outputHash: 'o'.repeat(64) };

describe('bindDecision', () => {
  it('an edit of the output carries both hashes of the review it answers', () => {
    expect(bindDecision('r1', { action: 'edit_text', text: 'Blue.' }, shown)).toEqual({ reviewId: 'r1', action: 'edit_text', text: 'Blue.', payloadHash: shown.payloadHash, outputHash: shown.outputHash });
  });

  it('any other decision carries the payload hash only', () => {
    expect(bindDecision('r1', { action: 'approve' }, shown)).toEqual({ reviewId: 'r1', action: 'approve', payloadHash: shown.payloadHash });
  });

  it('an answer to another review than the one shown carries no hash (the server then refuses or checks it itself)', () => {
    expect(bindDecision('r2', { action: 'edit_text', text: 'x' }, shown)).toEqual({ reviewId: 'r2', action: 'edit_text', text: 'x' });
    expect(bindDecision('r1', { action: 'approve' }, null)).toEqual({ reviewId: 'r1', action: 'approve' });
  });
});
