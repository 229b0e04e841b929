/** The shapes shared by the prompt-directive rules, the scanner and the builder. */
import type { FieldRole, FieldSpec } from '../generated/contracts.ts';
import type { Fit } from './value-reading.ts';

/**
 * How plainly the user addressed the field, strongest first:
 * - `assign`: `seed=42`, `seed: 42`, `--ar 16:9`, `negative prompt: blurry`;
 * - `named`: the field's own name then its value (`width 768`, `seed is 42`), or an unambiguous shape (`768x512`);
 * - `loose`: a phrase that implies the field (`50 steps`, `4 images`, `16:9`, `as png`, `with face enhance`).
 */
export type DirectiveForm = 'assign' | 'named' | 'loose';

/** Higher wins an overlap or a field written twice. */
export const FORM_RANK: Record<DirectiveForm, number> = { assign: 3, named: 2, loose: 1 };

/** One field a directive sets, and whether the value suits the field. */
export interface DirectiveValue {
  field: string;
  value: unknown;
  fit: Fit;
}

/** One phrase of the prompt that sets one or more fields (`768x512` sets two). */
export interface Directive {
  /** Span of the phrase in the scanned text. */
  start: number;
  end: number;
  /** The phrase exactly as written: the provenance evidence. */
  phrase: string;
  form: DirectiveForm;
  values: DirectiveValue[];
  /** Which rule produced it, for notes and tests (`named`, `size`, `ratio`, `count`, `steps`, ...). */
  rule: string;
  /** A secret field whose value was written here: the phrase is cut from the prompt and sets nothing. */
  withheld?: string;
  /** A phrase that reads as a parameter only in a clause of its own (`a cat, 50 steps` but not `a temple with 50 steps`). */
  needsOwnClause?: boolean;
  /** The phrase sets its fields but stays in the prompt, where it still describes the picture (`a vertical video`). */
  keepInPrompt?: boolean;
}

/** What the rules may look at: the text and the fields they may fill, with each role's primary field. */
export interface RuleContext {
  readonly text: string;
  /** Fields read as typed values (numbers, booleans, enums). */
  readonly typedFields: readonly FieldSpec[];
  /** Fields read as free text after a label (negative prompt, secondary prompts, free strings). */
  readonly textFields: readonly FieldSpec[];
  /** Secret fields: a labelled value in the prompt is taken out of the prompt and never used. */
  readonly secretFields: readonly FieldSpec[];
  /** System-prompt fields: filled only from text the user labels as the system prompt (`system prompt: …`) or an opening role (`Act as a sommelier.`). */
  readonly systemFields: readonly FieldSpec[];
  readonly primary: ReadonlyMap<FieldRole, FieldSpec>;
  /**
   * True when the words (`num inference steps`) are a name, title or role keyword of one of the schema's
   * fields, other than `except` when given.
   */
  readonly isKnownName: (words: string, except?: FieldSpec) => boolean;
}

/** A half-open range of positions in the scanned text. */
export interface Span {
  start: number;
  end: number;
}

/** True when two spans share at least one position. */
export function overlaps(a: Span, b: Span): boolean {
  return a.start < b.end && b.start < a.end;
}

/** Matches a Unicode letter, digit or underscore: the characters that continue a word. */
export const WORD_CHAR = '[\\p{L}\\p{N}_]';

/** A character of a script written without spaces between words (Japanese): a word boundary on either side. */
export const UNSPACED_CHAR = '[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}]';

/** The value chosen for one field, with the phrase that set it. */
export interface ScannedValue {
  field: string;
  value: unknown;
  fit: Fit;
  form: DirectiveForm;
  phrase: string;
  rule: string;
  /** The field was also given a different value elsewhere in the text. */
  conflicted: boolean;
}
