/**
 * What an accepting answer (`continue`) means for the review it answers, decided by code from the review itself:
 * a yes is the action the question was asked for (returnTo), a no rejects, an option or a value is an edit of the
 * field the question was about (answerField). Option ids map back to the field's own typed values.
 */
import type { Decision, FieldSpec, ModelSchema, PendingReview } from '../../generated/contracts.ts';
import { allowedValues, fieldsToRemove } from '../../review-model/question/build-question.ts';
import type { EditableField, ParsedReply, ReplyQuestion } from './types.ts';

/** What the reply is read against, from the review (and the model's schema for the fields it may change). */
export function replyQuestion(review: PendingReview, schema: ModelSchema | undefined): ReplyQuestion {
  return {
    expectedInput: review.expectedInput,
    source: review.source ?? 'planner',
    question: review.question,
    options: review.options,
    editableFields: editableFields(schema),
  };
}

/** The model's own inputs a reply may change: every field but the secret ones (tokens, keys). */
export function editableFields(schema: ModelSchema | undefined): EditableField[] {
  const properties = (schema?.jsonSchema.properties ?? {}) as Record<string, Record<string, unknown>>;
  return (schema?.fields ?? [])
    .filter((field) => field.role !== 'secret')
    .map((field) => ({ name: field.name, schema: properties[field.name] ?? { type: field.type }, ...(field.description ? { description: field.description } : {}) }));
}

export type Answer =
  | { kind: 'decision'; decision: Decision }
  /** An answer nothing in the review can take (no field to put free text in). */
  | { kind: 'unplaceable' }
  /** An answer that does not fit the field (not a number where one is needed): ask again. */
  | { kind: 'unfit' };

export function acceptingDecision(review: PendingReview, parsed: ParsedReply, schema: ModelSchema | undefined): Answer {
  const base = { reviewId: review.reviewId };
  switch (review.expectedInput) {
    case 'yes_no':
      if (parsed.approved === false) return { kind: 'decision', decision: { ...base, action: 'reject', reason: 'The person said no' } };
      if (parsed.approved !== true) return { kind: 'unfit' };
      return { kind: 'decision', decision: yes(review) };
    case 'single_choice':
    case 'multi_choice':
      return chosen(review, parsed.selected ?? [], fieldOf(review, schema), schema);
    case 'free_text':
      return written(review, parsed.answer ?? '', fieldOf(review, schema));
  }
}

/** A yes: what the question was asked for. */
function yes(review: PendingReview): Decision {
  const base = { reviewId: review.reviewId, payloadHash: review.payloadHash };
  const action = review.returnTo?.action ?? 'approve';
  switch (action) {
    case 'approve':
      return { ...base, action: 'approve' };
    case 'retry':
      return { reviewId: review.reviewId, action: 'retry' };
    case 'edit':
      // "Shall I remove them?" (values copied from the model's example), "run without it?" (a field no value
      // fits): removing is setting them back to unset.
      return { ...base, action: 'edit', edits: Object.fromEntries(fieldsToRemove(review.issues).map((field) => [field, null])) };
  }
}

function fieldOf(review: PendingReview, schema: ModelSchema | undefined): FieldSpec | undefined {
  return review.answerField ? schema?.fields.find((field) => field.name === review.answerField) : undefined;
}

/** Picked options, as the field's own values (option ids are those values written as text). */
function chosen(review: PendingReview, selected: readonly string[], field: FieldSpec | undefined, schema: ModelSchema | undefined): Answer {
  if (!field || selected.length === 0) return { kind: 'unfit' };
  const offered = new Set(review.options.map((option) => option.id));
  const values = allowedValues(field, schema) ?? [];
  const typed = selected.map((id) => (offered.has(id) ? values.find((value) => String(value) === id) : undefined));
  if (typed.some((value) => value === undefined)) return { kind: 'unfit' };
  const value = review.expectedInput === 'multi_choice' ? typed : typed[0];
  return { kind: 'decision', decision: { reviewId: review.reviewId, action: 'edit', edits: { [field.name]: value }, payloadHash: review.payloadHash } };
}

/** A written answer, as the value of the field the question was about. */
function written(review: PendingReview, answer: string, field: FieldSpec | undefined): Answer {
  if (!review.answerField) return { kind: 'unplaceable' };
  const text = answer.trim();
  if (text === '') return { kind: 'unfit' };
  const value = field ? typedValue(text, field) : text;
  if (value === undefined) return { kind: 'unfit' };
  return { kind: 'decision', decision: { reviewId: review.reviewId, action: 'edit', edits: { [review.answerField]: value }, payloadHash: review.payloadHash } };
}

/** Text as a value of the field's type, or undefined when it is not one (`twelve` for an integer). */
function typedValue(text: string, field: FieldSpec): unknown {
  const enumMatch = field.enum?.find((value) => String(value) === text);
  if (enumMatch !== undefined) return enumMatch;
  switch (field.type) {
    case 'integer':
      return /^-?\d+$/.test(text) ? Number(text) : undefined;
    case 'number':
      return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : undefined;
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : undefined;
    case 'array':
      return text.split(/\s*,\s*/).filter((item) => item !== '');
    case 'string':
    case 'object':
    case 'any':
      return text;
  }
}
