/** Layer 3's reading of an accepting answer: decided by code from the review, never by the interpreter. */
import { describe, expect, it } from 'vitest';
import { acceptingDecision, editableFields, replyQuestion } from '../../src/review/reply/answers.ts';
import type { ModelSchema } from '../../src/generated/contracts.ts';
import { issue, pendingReview, tinySchema } from '../support/fixtures.ts';

const schema: ModelSchema = {
  ...tinySchema,
  jsonSchema: { ...tinySchema.jsonSchema, properties: { ...(tinySchema.jsonSchema.properties as object), token: { type: 'string', writeOnly: true }, tags: { type: 'array', items: { enum: ['a', 'b', 3] } } } },
  fields: [
    ...tinySchema.fields,
    { name: 'token', role: 'secret', type: 'string', required: false, nullable: false, order: 4, hasDefault: false },
    { name: 'tags', role: 'other', type: 'array', required: false, nullable: false, order: 5, hasDefault: false },
  ],
};

describe('acceptingDecision', () => {
  it("a yes is the action the question was asked for; a no rejects; a yes/no without either asks again", () => {
    const review = pendingReview({ expectedInput: 'yes_no', returnTo: { action: 'approve', route: 'execute' } });
    expect(acceptingDecision(review, { approved: true }, schema)).toEqual({ kind: 'decision', decision: { reviewId: review.reviewId, payloadHash: review.payloadHash, action: 'approve' } });
    expect(acceptingDecision(review, { approved: false }, schema)).toMatchObject({ kind: 'decision', decision: { action: 'reject' } });
    expect(acceptingDecision(review, { answer: 'ok' }, schema)).toEqual({ kind: 'unfit' });
    expect(acceptingDecision({ ...review, returnTo: { action: 'retry', route: 'build' } }, { approved: true }, schema)).toMatchObject({ decision: { action: 'retry' } });
  });

  it('a yes to removing example values unsets each leaked field', () => {
    const review = pendingReview({ expectedInput: 'yes_no', reason: 'example_leak', returnTo: { action: 'edit', route: 'validate' }, issues: [issue('example_leak', '/prompt'), issue('example_leak', '/style/0')] });
    expect(acceptingDecision(review, { approved: true }, schema)).toMatchObject({ decision: { action: 'edit', edits: { prompt: null, style: null } } });
  });

  it("a chosen option is the field's own value, typed; an id not offered is unfit", () => {
    const single = pendingReview({ expectedInput: 'single_choice', answerField: 'style', options: [{ id: 'photo', label: 'photo' }, { id: 'anime', label: 'anime' }] });
    expect(acceptingDecision(single, { selected: ['anime'] }, schema)).toMatchObject({ decision: { action: 'edit', edits: { style: 'anime' } } });
    expect(acceptingDecision(single, { selected: ['oil'] }, schema)).toEqual({ kind: 'unfit' });
    const multi = pendingReview({ expectedInput: 'multi_choice', answerField: 'tags', options: [{ id: 'a', label: 'a' }, { id: 'b', label: 'b' }, { id: '3', label: '3' }] });
    expect(acceptingDecision(multi, { selected: ['a', '3'] }, schema)).toMatchObject({ decision: { edits: { tags: ['a', 3] } } });
  });

  it("a written answer becomes the field's value when it fits its type; with no field to take it, it is unplaceable", () => {
    const width = pendingReview({ expectedInput: 'free_text', answerField: 'width' });
    expect(acceptingDecision(width, { answer: ' 768 ' }, schema)).toMatchObject({ decision: { edits: { width: 768 } } });
    expect(acceptingDecision(width, { answer: 'wide' }, schema)).toEqual({ kind: 'unfit' });
    const prompt = pendingReview({ expectedInput: 'free_text', answerField: 'prompt' });
    expect(acceptingDecision(prompt, { answer: 'a red fox' }, schema)).toMatchObject({ decision: { edits: { prompt: 'a red fox' } } });
    expect(acceptingDecision(pendingReview({ expectedInput: 'free_text' }), { answer: 'anything' }, schema)).toEqual({ kind: 'unplaceable' });
  });
});

describe('replyQuestion', () => {
  it('is the review as asked, and the fields a reply may change leave the secret ones out', () => {
    const review = pendingReview({ expectedInput: 'single_choice', source: 'disambiguation', question: 'Which style?', options: [{ id: 'photo', label: 'photo' }] });
    const question = replyQuestion(review, schema);
    expect(question).toMatchObject({ expectedInput: 'single_choice', source: 'disambiguation', question: 'Which style?', options: [{ id: 'photo', label: 'photo' }] });
    expect(editableFields(schema).map((f) => f.name)).toEqual(['prompt', 'width', 'image', 'style', 'tags']);
    expect(editableFields(schema).find((f) => f.name === 'style')?.schema).toMatchObject({ enum: ['photo', 'anime'] });
  });
});
