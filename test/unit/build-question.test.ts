/** The question a review asks: built by code from the facts, in the person's language; an LLM chooses nothing here. */
import { describe, expect, it } from 'vitest';
import type { ParkReason } from '../../src/stages/gate.ts';
import { buildQuestion, MAX_CHOICE_OPTIONS } from '../../src/review-model/question/build-question.ts';
import { questionLocale } from '../../src/review-model/question/locale.ts';
import { LOCALES, MESSAGES } from '../../src/review-model/question/messages.ts';
import type { ModelSchema } from '../../src/generated/contracts.ts';
import { candidate, issue, tinySchema } from '../support/fixtures.ts';

const why = (reason: ParkReason['reason'], checkpoint: ParkReason['checkpoint'] = 'payload_review'): ParkReason => ({ reason, checkpoint, kind: 'approval', question: 'summary' });
const payload = candidate({ prompt: 'a cat', style: 'pastel' });
const ask = (reason: ParkReason['reason'], extra: Partial<Parameters<typeof buildQuestion>[0]> = {}) =>
  buildQuestion({ why: why(reason), issues: [], candidate: payload, schema: tinySchema, locale: 'en', ...extra });

describe('buildQuestion', () => {
  it.each(['policy_requires_human', 'low_confidence', 'too_many_changes', 'request_unused'] as const)('%s asks yes or no to run it as it is', (reason) => {
    expect(ask(reason)).toEqual({
      question: MESSAGES.en.runAsIs, locale: 'en', expectedInput: 'yes_no', source: 'planner',
      options: [{ id: 'yes', label: 'Yes' }, { id: 'no', label: 'No' }], returnTo: { action: 'approve', route: 'execute' },
    });
  });

  it('an invalid enum value offers the allowed values as numbered options (a disambiguation)', () => {
    const question = ask('validation_failed', { issues: [issue('enum', '/style')] });
    expect(question).toMatchObject({
      expectedInput: 'single_choice', source: 'disambiguation', answerField: 'style', returnTo: { action: 'edit', route: 'validate' },
      options: [{ id: 'photo', label: 'photo' }, { id: 'anime', label: 'anime' }],
    });
  });

  it('an array of enum values is a multi choice; too many values, or a free field, is written out', () => {
    const schema: ModelSchema = {
      ...tinySchema,
      jsonSchema: { ...tinySchema.jsonSchema, properties: { ...(tinySchema.jsonSchema.properties as object), tags: { type: 'array', items: { enum: ['a', 'b', 'c'] } }, size: { enum: Array.from({ length: MAX_CHOICE_OPTIONS + 1 }, (_, i) => i) } } },
      fields: [
        ...tinySchema.fields,
        { name: 'tags', role: 'other', type: 'array', required: false, nullable: false, order: 4, hasDefault: false },
        { name: 'size', role: 'other', type: 'integer', enum: Array.from({ length: MAX_CHOICE_OPTIONS + 1 }, (_, i) => i), required: false, nullable: false, order: 5, hasDefault: false },
      ],
    };
    expect(ask('validation_failed', { schema, issues: [issue('type', '/tags/0')] })).toMatchObject({ expectedInput: 'multi_choice', answerField: 'tags', options: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] });
    expect(ask('validation_failed', { schema, issues: [issue('enum', '/size')] })).toMatchObject({ expectedInput: 'free_text', answerField: 'size', source: 'planner', options: [] });
    expect(ask('validation_failed', { issues: [issue('range', '/width')] })).toMatchObject({ expectedInput: 'free_text', answerField: 'width', question: 'What should width be?' });
  });

  it('asks one field at a time, the first blocking one; a problem with no field asks for the request again', () => {
    expect(ask('validation_failed', { issues: [issue('provenance', '/prompt', 'warning'), issue('range', '/width'), issue('enum', '/style')] })).toMatchObject({ answerField: 'width' });
    expect(ask('validation_failed', { issues: [issue('constraint', '')] })).toEqual(expect.objectContaining({ expectedInput: 'free_text', question: MESSAGES.en.sayAgain }));
    expect(ask('validation_failed', { issues: [issue('constraint', '')] }).answerField).toBeUndefined();
  });

  it('nothing to build from asks what to make, and the answer is the prompt', () => {
    expect(buildQuestion({ why: why('nothing_to_build_from', 'information_review'), issues: [], candidate: null, schema: tinySchema, locale: 'en' }))
      .toMatchObject({ expectedInput: 'free_text', answerField: 'prompt', returnTo: { action: 'edit', route: 'build' } });
  });

  it.each([
    ['example_leak', { action: 'edit', route: 'validate' }],
    ['response_review', { action: 'approve', route: 'complete' }],
    ['builder_failed', { action: 'retry', route: 'build' }],
    ['execution_uncertain', { action: 'approve', route: 'execute' }],
    ['provider_throttled', { action: 'approve', route: 'execute' }],
    ['safety_flags', { action: 'approve', route: 'build' }],
    ['schema_changed', { action: 'approve', route: 'execute' }],
  ] as const)('%s is a yes/no whose yes leads to %j', (reason, returnTo) => {
    expect(ask(reason, { issues: reason === 'example_leak' ? [issue('example_leak', '/prompt')] : [] })).toMatchObject({ expectedInput: 'yes_no', returnTo });
  });

  it('names what it asks about: the personal data found, the example values', () => {
    expect(ask('safety_flags', { safetyFlags: ['email', 'phone'] }).question).toContain('(email, phone)');
    expect(ask('example_leak', { issues: [issue('example_leak', '/prompt'), issue('example_leak', '/style')] }).question).toContain('(prompt, style)');
  });

  it('asks in the language of the request', () => {
    expect(ask('policy_requires_human', { locale: 'he' })).toMatchObject({ question: MESSAGES.he.runAsIs, options: [{ id: 'yes', label: 'כן' }, { id: 'no', label: 'לא' }] });
  });
});

describe('questionLocale', () => {
  it('takes a supported locale tag, else the script of the text, else English', () => {
    expect(questionLocale('pt-BR', 'a cat')).toBe('pt');
    expect(questionLocale('ja', 'a cat')).toBe('en');
    expect(questionLocale(undefined, 'חתול על גג')).toBe('he');
    expect(questionLocale(undefined, 'قطة على السطح')).toBe('ar');
    expect(questionLocale(undefined, 'кот на крыше')).toBe('ru');
    // Latin-script languages are not guessed: a wrong guess would ask an English speaker in Spanish.
    expect(questionLocale(undefined, 'un gato en el tejado')).toBe('en');
  });

  it('every language has every message, with the same placeholders as English', () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const locale of LOCALES) {
      for (const key of Object.keys(MESSAGES.en) as (keyof typeof MESSAGES.en)[]) {
        expect(MESSAGES[locale][key].length, `${locale}.${key}`).toBeGreaterThan(0);
        expect(placeholders(MESSAGES[locale][key]), `${locale}.${key}`).toEqual(placeholders(MESSAGES.en[key]));
      }
    }
  });
});
