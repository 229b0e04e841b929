/**
 * A value converted from the user's words is the user's: the validator re-runs the recorded conversion on the
 * cited words and accepts the value only when it comes out the same, for the offline and the LLM builder alike;
 * a value with no trace, or a conversion that does not give it, is still refused.
 */
import { describe, expect, it } from 'vitest';
import { traceProvenance } from '../../src/adapters/openai/provenance-trace.ts';
import type { CandidatePayload, FieldProvenance, FieldSpec } from '../../src/generated/contracts.ts';
import { collectBundleEvidence } from '../../src/stages/bundle-evidence.ts';
import { provenanceIssues } from '../../src/stages/validator/provenance-issues.ts';
import { bundleOf } from '../support/reading-builds.ts';

function spec(name: string, type: FieldSpec['type'], extra: Partial<FieldSpec> = {}): FieldSpec {
  return { name, type, role: 'other', required: false, nullable: false, hasDefault: 'default' in extra, order: 0, ...extra };
}

const FIELDS = new Map<string, FieldSpec>(
  [
    spec('duration', 'integer', { minimum: 1, maximum: 300 }),
    spec('seconds', 'string', { default: '5.0' }),
    spec('clip_length', 'string', { enum: ['5.0', '10.0'] }),
    spec('language', 'string', { enum: ['en', 'es', 'fr'] }),
    spec('aspect_ratio', 'string', { role: 'aspect_ratio', enum: ['1:1', '16:9', '9:16'] }),
    spec('generate_audio', 'boolean', { default: true }),
  ].map((field) => [field.name, field]),
);

/** The provenance issues of one field set to `value`, claimed from `claim`, against the request `prompt`. */
function issuesFor(prompt: string, field: string, value: unknown, claim: FieldProvenance): string[] {
  const candidate: CandidatePayload = { payload: { [field]: value }, provenance: { [field]: claim }, confidence: 0.9, builder: 'test' };
  return provenanceIssues(candidate, FIELDS, collectBundleEvidence(bundleOf(prompt))).map((issue) => `${issue.severity}: ${issue.message}`);
}

describe('the validator re-derives converted values', () => {
  it.each([
    ['a calm song, 1 minute', 'duration', 60, '1 minute', 'duration'],
    ['a wave crashing, 10 seconds', 'seconds', '10.0', '10 seconds', 'duration'],
    ['a wave crashing, ten seconds', 'clip_length', '10.0', 'ten seconds', 'duration'],
    ['say good morning in Spanish', 'language', 'es', 'in Spanish', 'language_name'],
    ['di buenos días en español', 'language', 'es', 'en español', 'language_name'],
    ['a lighthouse, vertical', 'aspect_ratio', '9:16', 'vertical', 'aspect_word'],
    ['a storm at sea, sin audio', 'generate_audio', false, 'sin audio', 'negated_switch'],
  ] as const)('accepts %j → %s = %j (cited %j, %s)', (prompt, field, value, evidence, conversion) => {
    expect(issuesFor(prompt, field, value, { source: 'user_prompt', evidence, conversion })).toEqual([]);
  });

  it('refuses a value with no trace, with or without a conversion named', () => {
    expect(issuesFor('a calm song', 'duration', 60, { source: 'user_prompt', evidence: 'a calm song' })).toEqual([
      expect.stringMatching(/^blocking: duration claims to come from the user's words, but the request never mentions the number 60/),
    ]);
    expect(issuesFor('a calm song', 'duration', 60, { source: 'user_prompt', evidence: 'a calm song', conversion: 'duration' })).toHaveLength(1);
  });

  it('refuses a conversion that does not give the value from the cited words', () => {
    // Two minutes are 120 seconds, not 60.
    expect(issuesFor('a calm song, 2 minutes', 'duration', 60, { source: 'user_prompt', evidence: '2 minutes', conversion: 'duration' })).toHaveLength(1);
    expect(issuesFor('say it in French', 'language', 'es', { source: 'user_prompt', evidence: 'in French', conversion: 'language_name' })).toHaveLength(1);
    // A switch claimed on by words that switch it off.
    expect(issuesFor('a storm, sin audio', 'generate_audio', true, { source: 'user_prompt', evidence: 'sin audio', conversion: 'negated_switch' })).toEqual([
      expect.stringMatching(/^blocking: generate_audio is set to true by the negated_switch conversion of "sin audio"/),
    ]);
  });

  it('refuses words the user never wrote, even when the conversion would give the value', () => {
    expect(issuesFor('a calm song', 'duration', 60, { source: 'user_prompt', evidence: '1 minute', conversion: 'duration' })).toHaveLength(1);
  });
});

describe('the LLM builder traces converted values the same way', () => {
  it.each([
    ['a calm song, 1 minute please', 'duration', 60, { evidence: '1 minute', conversion: 'duration' }],
    ['say good morning in Spanish', 'language', 'es', { evidence: 'in Spanish', conversion: 'language_name' }],
    ['a storm at sea, sin audio', 'generate_audio', false, { evidence: 'sin audio', conversion: 'negated_switch' }],
  ] as const)('%j: %s = %j is the user\'s, citing the phrase and the conversion', (prompt, field, value, expected) => {
    const bundle = bundleOf(prompt);
    const provenance = traceProvenance(value, FIELDS.get(field) as FieldSpec, collectBundleEvidence(bundle), bundle);
    expect(provenance).toMatchObject({ source: 'user_prompt', ...expected });
    expect(issuesFor(prompt, field, value, provenance)).toEqual([]);
  });

  it('a value the words do not give stays inferred', () => {
    const bundle = bundleOf('say good morning in French');
    expect(traceProvenance('es', FIELDS.get('language') as FieldSpec, collectBundleEvidence(bundle), bundle).source).toBe('inferred');
  });
});
