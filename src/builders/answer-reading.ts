/**
 * A reply to the assistant's question, read as a person reads it: after `Which style would you like: realistic,
 * design or anime?` the reply `design` chooses the style, and after `How many images?` the reply `4` is the count.
 * The question only says which field the reply is about; the value is always the user's own words (an option of
 * the field written as the schema spells it, or a number in digits or words), so assistant turns still never supply values.
 * A reply to such a question is not a new subject for the prompt: what it does not set is reported, not drawn.
 */
import { readFileSync } from 'node:fs';
import type { FieldSpec, ModelSchema, UnusedRequest } from '../generated/contracts.ts';
import { fieldLabels } from '../reading/conversions.ts';
import { countField } from '../reading/fields.ts';
import { numberSource, parseWrittenNumber } from '../reading/numbers.ts';
import { fromPackageRoot } from '../util/package-root.ts';
import type { Span } from './directive-types.ts';
import { escapeRegExp, fieldNames, mediaKindOfField, orderedFields, primaryFieldForRole } from './field-vocabulary.ts';
import { isFollowUpOnly } from './follow-up-words.ts';
import type { ScannedValue } from './prompt-directives.ts';
import { fitOf, hasEnum, isTypedField } from './value-reading.ts';

/** What a reply gives: the value for the asked field (with the span it takes), or the words it left unread. */
export interface AnswerReading {
  field: string;
  value?: ScannedValue;
  span?: Span;
  unused?: UnusedRequest;
}

const QUESTION_MARK = /[?？؟]/u;
const CLAUSE = /[^,;|\n،؛、，；。]+/gu;
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

let countWords: readonly string[] | undefined;

function countQuestionWords(): readonly string[] {
  if (countWords === undefined) {
    const file = JSON.parse(readFileSync(fromPackageRoot('src', 'builders', 'words', 'question.json'), 'utf8')) as { count: Record<string, string[]> };
    countWords = Object.values(file.count).flat().map((word) => word.toLowerCase());
  }
  return countWords;
}

/** True when the words stand in the text as whole words (as a substring in a script written without spaces). */
function namesIn(text: string, words: string): boolean {
  if (UNSPACED.test(words)) return text.includes(words);
  return new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRegExp(words)}(?![\\p{L}\\p{N}_])`, 'iu').test(text);
}

/** Fields a reply may set: typed settings, never secrets, system prompts or files. */
function settingFields(schema: ModelSchema): FieldSpec[] {
  return orderedFields(schema).filter(
    (field) => isTypedField(field) && field.role !== 'secret' && field.role !== 'system_prompt' && mediaKindOfField(field, schema) === null,
  );
}

/**
 * The field an assistant's question asks about: the outputs' count for `how many`, otherwise the one field
 * whose name (in any reading language) the question uses. Undefined for a statement, or a question naming
 * no field or several.
 */
export function askedField(question: string, schema: ModelSchema): FieldSpec | undefined {
  if (!QUESTION_MARK.test(question)) return undefined;
  const text = question.toLowerCase();
  const fields = settingFields(schema);
  if (countQuestionWords().some((words) => namesIn(text, words))) {
    const count = countField(fields);
    if (count) return count;
  }
  let best: { field: FieldSpec; length: number } | undefined;
  let tie = false;
  for (const field of fields) {
    const primary = primaryFieldForRole(fields, field.role) === field;
    const names = [...fieldNames(field, primary), ...fieldLabels(field)].filter((name) => name.length >= 3 || UNSPACED.test(name));
    const length = Math.max(0, ...names.filter((name) => namesIn(text, name)).map((name) => name.length));
    if (length === 0) continue;
    if (best === undefined || length > best.length) {
      best = { field, length };
      tie = false;
    } else if (length === best.length) tie = true;
  }
  return tie ? undefined : best?.field;
}

/**
 * Reads the reply for the asked field. `taken` are the spans the reply's other settings took. A clause of the
 * reply that, apart from filler, is one option of the field or one number is the answer.
 */
export function readAnswer(reply: string, field: FieldSpec, taken: readonly Span[], alreadySet: boolean): AnswerReading {
  if (alreadySet) return { field: field.name };
  let unread: Span | undefined;
  for (const clause of reply.matchAll(CLAUSE)) {
    const start = clause.index;
    const end = start + clause[0].length;
    if (taken.some((span) => span.start <= start && end <= span.end)) continue;
    const blanked = blank(reply, start, end, taken);
    const found = hasEnum(field) ? optionIn(blanked, field) : numberIn(blanked);
    if (found && isFollowUpOnly(blanked.slice(0, found.start) + ' ' + blanked.slice(found.end))) {
      const span = { start: start + found.start, end: start + found.end };
      const phrase = reply.slice(span.start, span.end);
      const value = { field: field.name, value: found.value, fit: fitOf(field, found.value), form: 'loose' as const, phrase, rule: 'answer', conflicted: false };
      return { field: field.name, value, span };
    }
    if (unread === undefined && !isFollowUpOnly(blanked)) unread = { start, end };
  }
  if (unread === undefined) return { field: field.name };
  const phrase = reply.slice(unread.start, unread.end).trim();
  return { field: field.name, unused: { phrase, reason: `it answers the question about ${field.name}, but is none of its options or a number it takes` } };
}

/** The clause with the other settings' spans blanked, so only what they left is judged. */
function blank(text: string, start: number, end: number, taken: readonly Span[]): string {
  const chars = text.slice(start, end).split('');
  for (const span of taken) for (let i = Math.max(span.start, start); i < Math.min(span.end, end); i += 1) chars[i - start] = ' ';
  return chars.join('');
}

/** The one option of the field the clause names, as the schema spells it (case, `_`, `-` and spaces aside). */
function optionIn(clause: string, field: FieldSpec & { enum: unknown[] }): { start: number; end: number; value: unknown } | undefined {
  const found = field.enum.flatMap((option) => {
    if (typeof option !== 'string' || option.trim().length < 2) return [];
    const words = option.trim().split(/[\s_-]+/).map(escapeRegExp).join('[\\s_-]+');
    const match = new RegExp(`(?<![\\p{L}\\p{N}_])${words}(?![\\p{L}\\p{N}_])`, 'iu').exec(clause);
    return match ? [{ start: match.index, end: match.index + match[0].length, value: option as unknown }] : [];
  });
  // `realistic` inside `hyper realistic`: the longest wins; two unrelated options named is no answer.
  const longest = found.sort((a, b) => b.end - b.start - (a.end - a.start))[0];
  if (!longest) return undefined;
  return found.every((other) => other === longest || (longest.start <= other.start && other.end <= longest.end)) ? longest : undefined;
}

/** One number, in digits (`4`, `1.3`) or as a number word of a reading language (`four`, `trois`); none or several is no answer. */
function numberIn(clause: string): { start: number; end: number; value: number } | undefined {
  numberPattern ??= new RegExp(numberSource(), 'giu');
  const numbers = [...clause.matchAll(numberPattern)];
  const only = numbers.length === 1 ? numbers[0] : undefined;
  const value = only ? parseWrittenNumber(only[0]) : undefined;
  if (!only || value === undefined) return undefined;
  return { start: only.index, end: only.index + only[0].length, value };
}

let numberPattern: RegExp | undefined;
