/**
 * Small shared pieces of the directive rules: which words are filler around a parameter phrase, the clause
 * around a position, and the directive constructor.
 */
import type { FieldSpec } from '../generated/contracts.ts';
import { fillerWords } from '../reading/index.ts';
import type { Directive, DirectiveForm } from './directive-types.ts';

/** Words that carry no content of their own around a parameter phrase (`please make it 16:9`). */
const FILLER = new Set([
  'and', 'with', 'using', 'use', 'at', 'in', 'please', 'make', 'generate', 'give', 'me', 'i', 'want', 'need', 'it',
  'them', 'set', 'to', 'the', 'a', 'an', 'of', 'for', 'via', 'total', 'run', 'render', 'create', 'produce', 'show',
  'draw', 'just', 'only', 'also', 'do', 'can', 'you', 'get', 'all', 'as', 'would', 'like', 'could', 'should', 'be',
]);

/**
 * True when every word is filler (`please generate`, `use`, `and`) or there are none. The reading word lists add
 * the filler of the other languages (`por favor`, `bitte`), so `un zorro, formato vertical` stands apart too.
 */
export function isFillerOnly(text: string): boolean {
  const words = text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
  const others = fillerWords();
  return words.every((word) => FILLER.has(word) || others.has(word));
}

/** True when only filler words stand between the start of the clause and `position` (`generate 4 images of`). */
export function onlyFillerBefore(text: string, position: number): boolean {
  const windowStart = Math.max(0, position - 80);
  const before = text.slice(windowStart, position);
  const clauseBreak = /[,;|\n،؛、，；。]|[.!?](?=\s)/g;
  let clauseStart = -1;
  for (const match of before.matchAll(clauseBreak)) clauseStart = match.index;
  // No clause start within reach: the clause is long, so it is not just a lead-in.
  if (clauseStart === -1 && windowStart > 0) return false;
  return isFillerOnly(before.slice(clauseStart + 1));
}

/** The few words before a position: enough for the lead-in tests, without rescanning a long prompt each time. */
export function windowBefore(text: string, position: number): string {
  return text.slice(Math.max(0, position - 48), position);
}

/** True when the clause ends right after `end` (end of text, a separator, a sentence end or a `--flag`). */
export function clauseEndsAt(text: string, end: number): boolean {
  return /^\s*(?:$|[,;|\n،؛、，；。]|[.!?](?:\s|$)|--)/.test(text.slice(end));
}

/** True for integer and number fields. */
export function isNumeric(field: FieldSpec): boolean {
  return field.type === 'integer' || field.type === 'number';
}

/** A directive whose phrase is the text between start and end. */
export function makeDirective(
  text: string,
  start: number,
  end: number,
  form: DirectiveForm,
  rule: string,
  values: Directive['values'],
): Directive {
  return { start, end, phrase: text.slice(start, end), form, values, rule };
}
