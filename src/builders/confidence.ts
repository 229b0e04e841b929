/**
 * How sure the heuristic builder is, per field and per payload.
 *
 * Per field: a fixed value for how the field got its value (the table below).
 *
 * Per payload, the MINIMUM of the field confidences, with two overrides:
 * - 0 when a required field has no value (the validator will raise missing_required; a person must decide),
 *   and 0 when nothing in the request reached any field (there is nothing to build from);
 * - at most NO_PROMPT_CAP when the model has a prompt field, it got no prompt, and no attachment was used;
 * - at most UNPLACED_TEXT_CAP when the model has no prompt input and part of the request's text went nowhere
 *   (`translate this to English` for a transcriber without a translate switch the builder could read);
 * - at most CONFIDENCE.notAnOption when the user assigned a field a value of the wrong type (`seed: random`) and
 *   no edit settled it: the request asked for something the payload does not do.
 * Why the minimum and not the product: a gate's `minConfidence` reads as "no field is less sure than this".
 * A product would rate a request that states six settings plainly below one that states a single setting
 * vaguely, so users would be rewarded for saying less.
 */
export const CONFIDENCE = {
  /** A person set the value. */
  humanEdit: 1,
  /** The schema's own default. */
  schemaDefault: 1,
  /** The user's prompt as written. */
  promptVerbatim: 1,
  /** The user's prompt with parameter phrases removed. */
  promptStripped: 0.95,
  /** The last user turn of the conversation, because the request had no prompt. */
  promptFromConversation: 0.8,
  /** `seed=42`, `seed: 42`, `--ar 16:9`, `negative prompt: ...`. */
  assign: 0.95,
  /** `width 768`, `seed is 42`, `768x512`. */
  named: 0.9,
  /** `50 steps`, `4 images`, `16:9`, `as png`, `with face enhance`, `avoid: ...`. */
  loose: 0.8,
  /** A field written twice with different values: the builder picked one. */
  conflicting: 0.5,
  /** A value the user gave that is not an option or out of range: kept as written for the validator to flag. */
  notAnOption: 0.3,
  /** Attachment whose kind fits and whose name shares a word with the field. */
  attachmentByName: 0.9,
  /** Attachment whose kind fits, the only field of that kind. */
  attachmentByMime: 0.75,
  /** Attachment whose kind fits several fields, placed by field order. */
  attachmentContested: 0.6,
  /** Attachment placed in a generic file field, or a mask-named image in an image field. */
  attachmentFallback: 0.5,
} as const;

/** The payload's confidence is capped here when the model wanted a prompt and got neither prompt nor file. */
export const NO_PROMPT_CAP = 0.5;

/** The cap when request text had no field to go to: a person may want to check it, it is not a guess. */
export const UNPLACED_TEXT_CAP = 0.7;

/** What the payload's confidence depends on (see the formula at the top of this file). */
export interface ConfidenceFacts {
  /** Per-field confidences of the values set. */
  fieldConfidences: readonly number[];
  missingRequired: boolean;
  /** At least one value came from the user's prompt, an attachment or a human edit. */
  anythingFromRequest: boolean;
  /** The model has a prompt field that got no value and no attachment was used. */
  promptMissing: boolean;
  /** The user assigned a value of the wrong type to a field that no edit has set. */
  valueRefused: boolean;
  /** The model has no prompt input and some of the request's text went nowhere. */
  textUnplaced?: boolean;
}

/** The payload's confidence: 0, or the weakest field, capped when the prompt is missing or a value was refused. */
export function payloadConfidence(facts: ConfidenceFacts): number {
  if (facts.missingRequired || !facts.anythingFromRequest) return 0;
  let confidence = facts.fieldConfidences.reduce((min, value) => Math.min(min, value), 1);
  if (facts.promptMissing) confidence = Math.min(confidence, NO_PROMPT_CAP);
  if (facts.textUnplaced) confidence = Math.min(confidence, UNPLACED_TEXT_CAP);
  if (facts.valueRefused) confidence = Math.min(confidence, CONFIDENCE.notAnOption);
  return confidence;
}
