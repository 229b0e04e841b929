/**
 * A later turn that corrects a number without naming its setting: `actually three`, `only one`, `mejor dos`,
 * `doch lieber drei`, `slower, 110, and just 3`. A person reads it against what the conversation set before:
 *  - a number picked out as "only" or "just" (`only one`, `solo dos`, `だけ`) is a number of outputs, when the
 *    conversation spoke of that number before (a user turn set it, or the assistant's turn right before named it);
 *  - otherwise one number, with exactly one number setting the user's earlier turns set (and this turn did not),
 *    is that setting's new value;
 *  - anything else is ambiguous and is reported as unplaced, for a person to say what it sets.
 * The assistant's turn only says what was spoken of, never a value. A value that does not fit its field is
 * reported rather than placed.
 */
import type { FieldSpec, ModelSchema, UnusedRequest } from '../generated/contracts.ts';
import { countField, isNumericField, numericOptions } from '../reading/fields.ts';
import { numberForField } from '../reading/field-values.ts';
import { unitOfField } from '../reading/quantities.ts';
import { isDigitsOnly, numberSource, parseWrittenNumber } from '../reading/numbers.ts';
import { anyWordPattern, readingWords } from '../reading/index.ts';
import { foldWord } from '../reading/words.ts';
import type { ScannedValue } from './prompt-directives.ts';

/** The rule a number read this way records: a plain number the user wrote, checked against the user's words. */
export const FOLLOW_UP_NUMBER_RULE = 'follow-up number';

/** A number a later turn gives without naming its setting. */
export interface BareNumber {
  phrase: string;
  value: number;
  start: number;
  end: number;
  /** Picked out as the only one (`only one`, `just 3`, `solo dos`, `三つだけ`). */
  only: boolean;
}

/** How many words of approximation (`a few`, `quelques`, `несколько`) are numbers only roughly: never a correction. */
const APPROXIMATE: ReadonlySet<string> = new Set(['a few', 'a couple', 'unos cuantos', 'unas cuantas', 'quelques', 'umas duas', 'uns dois', 'umas três', 'uns três', 'несколько', 'ein paar']);

let numberPattern: RegExp | undefined;

/**
 * The numbers in a later turn's words that no rule read: digits standing alone (`110`, not `4x`), and number words
 * that are whole numbers. "One" as a word counts only picked out (`only one`): alone it is mostly an article
 * (`una vez más`, `ein bisschen`).
 */
export function bareNumbers(text: string): BareNumber[] {
  numberPattern ??= new RegExp(numberSource(), 'giu');
  const found: BareNumber[] = [];
  for (const match of text.matchAll(numberPattern)) {
    const phrase = match[0];
    const start = match.index;
    const end = start + phrase.length;
    const value = parseWrittenNumber(phrase);
    if (value === undefined) continue;
    const digits = isDigitsOnly(phrase);
    if (digits && (/[\p{L}_]/u.test(text[start - 1] ?? '') || /[\p{L}\p{N}_]/u.test(text[end] ?? ''))) continue;
    const only = pickedOut(text, start, end);
    if (!digits && (!Number.isInteger(value) || value < 1 || APPROXIMATE.has(foldWord(phrase)) || (value === 1 && !only))) continue;
    found.push({ phrase, value, start, end, only });
  }
  return found;
}

let leadPattern: RegExp | undefined;
let trailPattern: RegExp | undefined;

function pickedOut(text: string, start: number, end: number): boolean {
  const words = readingWords().lists;
  leadPattern ??= new RegExp(`${anyWordPattern(words.selectLeads)}\\s*$`, 'iu');
  trailPattern ??= new RegExp(`^\\s*${anyWordPattern(words.selectTrails)}`, 'iu');
  return leadPattern.test(text.slice(Math.max(0, start - 24), start)) || trailPattern.test(text.slice(end, end + 16));
}

/** What the conversation said before the turn: the user's earlier values, and the fields the assistant's turn named. */
export interface EarlierSettings {
  /** Values the user's earlier turns set, oldest first (a later one for the same field replaces it). */
  values: readonly ScannedValue[];
  /** Fields the assistant's turn right before this one named a value for (the value is not used). */
  assistantFields: () => readonly string[];
}

/** The numbers placed, each with its field's value, and those left for a person. */
export interface PlacedNumbers {
  values: ScannedValue[];
  unused: UnusedRequest[];
  notes: string[];
}

/** Places each bare number where the conversation makes its setting plain; reports the rest. */
export function placeBareNumbers(numbers: readonly BareNumber[], earlier: EarlierSettings, setNow: ReadonlySet<string>, schema: ModelSchema): PlacedNumbers {
  const numeric = (name: string) => {
    const field = schema.fields.find((candidate) => candidate.name === name);
    return field !== undefined && (isNumericField(field) || numericOptions(field)) && !setNow.has(name) ? field : undefined;
  };
  const userFields = unique(earlier.values.map((value) => value.field)).flatMap((name) => numeric(name) ?? []);
  const placed = new Map<BareNumber, FieldSpec>();
  const taken = new Set<string>();
  const count = outputsField(schema.fields);
  const picked = numbers.filter((number) => number.only);
  if (count && picked.length === 1 && !setNow.has(count.name)) {
    const spoken = userFields.includes(count) || earlier.assistantFields().includes(count.name);
    const [number] = picked;
    if (spoken && number) {
      placed.set(number, count);
      taken.add(count.name);
    }
  }
  const rest = numbers.filter((number) => !placed.has(number));
  const open = userFields.filter((field) => !taken.has(field.name));
  const [single] = rest;
  const [field] = open;
  if (rest.length === 1 && open.length === 1 && single && field) placed.set(single, field);
  const result: PlacedNumbers = { values: [], unused: [], notes: [] };
  for (const number of numbers) {
    const target = placed.get(number);
    const value = target && valueFor(number, target);
    if (!target || !value) {
      result.unused.push({ phrase: number.phrase, reason: 'a number given without naming the setting it is for' });
      continue;
    }
    result.values.push(value);
    result.notes.push(`${target.name}: "${number.phrase}" in a later turn names no setting; it changes ${target.name}, the number the conversation set before`);
  }
  return result;
}

/**
 * The field for how many outputs: the count role, or a whole-number field named for what is made (`variations`,
 * `num_samples`): the unit its name says is one of the words for outputs.
 */
function outputsField(fields: readonly FieldSpec[]): FieldSpec | undefined {
  const outputs = readingWords().byLanguage.en.images;
  return countField(fields) ?? fields.find((field) => field.type === 'integer' && outputs.includes(unitOfField(field) ?? ''));
}

/** The field's value for the number, when it fits and stays checkable against the user's words. */
function valueFor(number: BareNumber, field: FieldSpec): ScannedValue | undefined {
  const converted = numberForField(number.value, field);
  if (converted.fit !== 'ok') return undefined;
  // A string option (`"4"`) is checked as text: only the digits as written vouch for it.
  if (typeof converted.value !== 'number' && converted.value !== number.phrase.trim()) return undefined;
  return { field: field.name, value: converted.value, fit: 'ok', form: 'loose', phrase: number.phrase, rule: FOLLOW_UP_NUMBER_RULE, conflicted: false };
}

function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}
