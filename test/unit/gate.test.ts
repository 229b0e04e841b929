import { describe, expect, it } from 'vitest';
import { changedFields, decideGate, informationReview, payloadHash, type GateInput } from '../../src/stages/gate.ts';
import { bundle, candidate, issue, tinySchema } from '../support/fixtures.ts';

function input(overrides: Partial<GateInput> = {}): GateInput {
  return { issues: [], policy: { mode: 'auto' }, candidate: candidate({ prompt: 'a cat' }), schema: tinySchema, bundle: bundle(), approvedPayloadHash: null, ...overrides };
}

describe('decideGate', () => {
  it('executes a clean payload under auto', () => {
    expect(decideGate(input())).toEqual({ action: 'execute' });
  });

  it('executes despite warnings', () => {
    expect(decideGate(input({ issues: [issue('provenance', '/width', 'warning')] })).action).toBe('execute');
  });

  it('parks blocking issues for a payload review naming the fields', () => {
    const gate = decideGate(input({ issues: [issue('missing_required', '/image'), issue('range', '/width')] }));
    expect(gate).toMatchObject({ action: 'park', reason: 'validation_failed', checkpoint: 'payload_review', kind: 'clarification' });
    expect(gate.action === 'park' && gate.question).toContain('image, width');
  });

  it('puts an example leak first, whatever else is wrong', () => {
    const gate = decideGate(input({ issues: [issue('missing_required', '/image'), issue('example_leak', '/prompt')] }));
    expect(gate).toMatchObject({ action: 'park', reason: 'example_leak' });
  });

  it('parks a payload of schema defaults only when the request gave something, under any policy', () => {
    const defaultsOnly = candidate({ prompt_a: 'funky synth solo' }, { provenance: { prompt_a: { source: 'schema_default' } }, confidence: 0 });
    expect(decideGate(input({ candidate: defaultsOnly }))).toMatchObject({ action: 'park', reason: 'request_unused', checkpoint: 'payload_review' });
    // A value the builder chose (an LLM rewording the prompt) is its reading of the request, not a default.
    const inferredOnly = candidate({ prompt: 'A tranquil lake at golden hour' }, { provenance: { prompt: { source: 'inferred' } } });
    expect(decideGate(input({ candidate: inferredOnly }))).toEqual({ action: 'execute' });
    // One field from the request is enough; a model with no inputs has nothing that could carry it.
    const mixed = candidate({ prompt: 'a cat', width: 1024 }, { provenance: { prompt: { source: 'user_prompt' }, width: { source: 'schema_default' } } });
    expect(decideGate(input({ candidate: mixed }))).toEqual({ action: 'execute' });
    expect(decideGate(input({ candidate: candidate({}), schema: { ...tinySchema, fields: [] } }))).toEqual({ action: 'execute' });
  });

  it('require_human parks until this exact payload was approved', () => {
    const cand = candidate({ prompt: 'a cat' });
    expect(decideGate(input({ policy: { mode: 'require_human' }, candidate: cand }))).toMatchObject({ action: 'park', reason: 'policy_requires_human' });
    expect(decideGate(input({ policy: { mode: 'require_human' }, candidate: cand, approvedPayloadHash: payloadHash(cand) }))).toEqual({ action: 'execute' });
    expect(decideGate(input({ policy: { mode: 'require_human' }, candidate: candidate({ prompt: 'a dog' }), approvedPayloadHash: payloadHash(cand) })).action).toBe('park');
  });

  it('auto_with_thresholds parks below the confidence minimum and above the change maximum', () => {
    const policy = { mode: 'auto_with_thresholds' as const, minConfidence: 0.8, maxChangedFields: 1 };
    expect(decideGate(input({ policy, candidate: candidate({ prompt: 'x' }, { confidence: 0.5 }) }))).toMatchObject({ reason: 'low_confidence' });
    expect(decideGate(input({ policy, candidate: candidate({ prompt: 'x', width: 512 }) }))).toMatchObject({ reason: 'too_many_changes' });
    expect(decideGate(input({ policy, candidate: candidate({ prompt: 'x', width: 1024 }) }))).toEqual({ action: 'execute' });
  });

});

describe('informationReview (before building)', () => {
  it('parks when there is nothing to build from', () => {
    expect(informationReview(bundle({ prompt: '' }), { mode: 'auto' })).toMatchObject({ reason: 'nothing_to_build_from', checkpoint: 'information_review' });
    expect(informationReview(bundle({ prompt: '', humanEdits: { seed: 1 } }), { mode: 'auto' })).toBeUndefined();
    expect(informationReview(bundle({ prompt: '', attachments: [{ url: 'https://x.test/a.png', mimeType: 'image/png' }] }), { mode: 'auto' })).toBeUndefined();
  });

  it('parks on safety flags only when the policy asks', () => {
    const flagged = bundle({ safetyFlags: [{ code: 'email_address', message: 'email' }] });
    expect(informationReview(flagged, { mode: 'auto' })).toBeUndefined();
    expect(informationReview(flagged, { mode: 'auto', blockOnSafetyFlags: true })).toMatchObject({ reason: 'safety_flags', checkpoint: 'information_review' });
  });
});

describe('changedFields', () => {
  it('counts fields that differ from the default or have none', () => {
    expect(changedFields(candidate({ prompt: 'x', width: 1024, style: 'anime' }), tinySchema)).toEqual(['prompt', 'style']);
  });
});
