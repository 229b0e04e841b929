/**
 * Reading one typed value out of the user's text at a known position, and checking it against its field.
 * The value is always the user's own token (or the enum member it names, case and `_`/space aside); nothing
 * here rounds, clamps, translates or guesses.
 */
import type { FieldSpec } from '../generated/contracts.ts';
import { isDigitsOnly, numberSource, parseWrittenNumber } from '../reading/numbers.ts';

/** Whether a value the user wrote is acceptable to the field as it stands. */
export type Fit = 'ok' | 'not_an_option' | 'out_of_range';

/** A value read from the text. */
export interface ReadValue {
  value: unknown;
  /** The value as written. */
  raw: string;
  /** Index just past the value in the text. */
  end: number;
  fit: Fit;
}

/** Numbers in the only spelling the validator's evidence recognises (`42`, `-1`, `7.5`), so a claim stays checkable. */
const NUMBER = /-?\d+(?:\.\d+)?/y;
const PIXEL_UNIT = /\s*px\b/iy;
const BOOLEAN = /(true|false|yes|no|on|off|enabled|disabled|1|0)(?![\p{L}\p{N}_])/iuy;
/** A token ends at a space or a comma or semicolon of any script (`512،`, `512、`). */
const TOKEN = /[^\s,;،؛、，；。]+/y;
const RATIO = /^\d{1,3}:\d{1,3}$/;
const NUMERAL = /^-?\d+(?:\.\d+)?$/;
const TRUE_WORDS = new Set(['true', 'yes', 'on', 'enabled', '1']);

/** True when the field's value is read as a typed token (number, boolean or enum member). */
export function isTypedField(field: FieldSpec): boolean {
  if (hasEnum(field)) return true;
  return field.type === 'integer' || field.type === 'number' || field.type === 'boolean';
}

/** True when the field lists its options. */
export function hasEnum(field: FieldSpec): field is FieldSpec & { enum: unknown[] } {
  return Array.isArray(field.enum) && field.enum.length > 0;
}

/**
 * Reads the field's value starting at `pos`. With `acceptMiss`, a well-formed value that is not an enum member
 * is still returned (fit `not_an_option`) so it can be set as written and flagged by the validator.
 * Null when nothing of the right type is there.
 */
export function readTypedValue(text: string, pos: number, field: FieldSpec, acceptMiss: boolean): ReadValue | null {
  if (hasEnum(field)) return readEnum(text, pos, field, acceptMiss);
  if (field.type === 'boolean') return readBoolean(text, pos);
  if (field.type === 'integer' || field.type === 'number') return readNumber(text, pos, field) ?? (acceptMiss ? readNumberWords(text, pos, field) : null);
  return null;
}

let numberWordsPattern: RegExp | undefined;

/**
 * `seed forty-two`, `Seed zweiundvierzig`: a whole number written in words right after a field's name. Only where
 * the user plainly addressed the field (`acceptMiss`): a loose name followed by a word is more often a description.
 * The value stays checkable: the validator reads number words in the user's text as their numbers.
 */
function readNumberWords(text: string, pos: number, field: FieldSpec): ReadValue | null {
  numberWordsPattern ??= new RegExp(numberSource(), 'iuy');
  numberWordsPattern.lastIndex = pos;
  const match = numberWordsPattern.exec(text);
  if (!match || isDigitsOnly(match[0])) return null;
  const value = parseWrittenNumber(match[0]);
  if (value === undefined || !Number.isInteger(value) || !endsToken(text, pos + match[0].length)) return null;
  return { value, raw: match[0], end: pos + match[0].length, fit: fitOf(field, value) };
}

/** Reads a number at `pos` ending on a token boundary (`768`, `768px`; not `768x512`, not `4x`). */
export function readNumberToken(text: string, pos: number): { raw: string; value: number; end: number } | null {
  NUMBER.lastIndex = pos;
  const match = NUMBER.exec(text);
  if (!match) return null;
  let end = pos + match[0].length;
  PIXEL_UNIT.lastIndex = end;
  const unit = PIXEL_UNIT.exec(text);
  if (unit) end += unit[0].length;
  if (!endsToken(text, end)) return null;
  return { raw: match[0], value: Number(match[0]), end };
}

/** Whether `value` suits the field's bounds and options. */
export function fitOf(field: FieldSpec, value: unknown): Fit {
  if (hasEnum(field) && !field.enum.some((member) => sameOption(member, value))) return 'not_an_option';
  if (typeof value === 'number') {
    if (field.minimum !== undefined && value < field.minimum) return 'out_of_range';
    if (field.maximum !== undefined && value > field.maximum) return 'out_of_range';
  }
  return 'ok';
}

/** The enum member the user's text names (case-insensitive, `_` read as space, numbers by value). */
export function findEnumMember(field: FieldSpec, written: string): unknown {
  if (!hasEnum(field)) return undefined;
  return field.enum.find((member) => sameOption(member, written));
}

/**
 * True when a value that is not an option still has the shape of the options (`21:9` beside `16:9`, `3` beside
 * `1, 2, 4`): then the user clearly meant this field and the value is kept for the validator to flag.
 */
export function looksLikeOptions(field: FieldSpec, raw: string): boolean {
  if (!hasEnum(field)) return false;
  const members = field.enum.map(String);
  if (members.every((member) => RATIO.test(member))) return RATIO.test(raw);
  if (members.every((member) => NUMERAL.test(member))) return NUMERAL.test(raw);
  return false;
}

/** True when nothing word-like continues the token at `end` (a `.` or `:` followed by a digit continues it). */
export function endsToken(text: string, end: number): boolean {
  const next = text[end];
  if (next === undefined) return true;
  // A letter of a script written without spaces ends the token (`16:9にして`, `777、`).
  if (/[\p{L}\p{N}_]/u.test(next) && !/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(next)) return false;
  return !((next === '.' || next === ':') && /\d/.test(text[end + 1] ?? ''));
}

function readNumber(text: string, pos: number, field: FieldSpec): ReadValue | null {
  const token = readNumberToken(text, pos);
  if (!token) return null;
  if (field.type === 'integer' && !Number.isSafeInteger(token.value)) return null;
  return { value: token.value, raw: token.raw, end: token.end, fit: fitOf(field, token.value) };
}

function readBoolean(text: string, pos: number): ReadValue | null {
  BOOLEAN.lastIndex = pos;
  const match = BOOLEAN.exec(text);
  if (!match) return null;
  const raw = match[0];
  return { value: TRUE_WORDS.has(raw.toLowerCase()), raw, end: pos + raw.length, fit: 'ok' };
}

function readEnum(text: string, pos: number, field: FieldSpec & { enum: unknown[] }, acceptMiss: boolean): ReadValue | null {
  // Longest member first, so `K_EULER_ANCESTRAL` wins over `K_EULER` and `plain text` is read whole.
  const members = field.enum
    .filter((member): member is string => typeof member === 'string')
    .sort((a, b) => b.length - a.length);
  for (const member of members) {
    const written = text.slice(pos, pos + member.length);
    if (sameOption(member, written) && endsToken(text, pos + member.length)) {
      return { value: member, raw: written, end: pos + member.length, fit: 'ok' };
    }
  }
  TOKEN.lastIndex = pos;
  const token = TOKEN.exec(text);
  if (!token) return null;
  const raw = token[0].replace(/[.!?)\]'"]+$/, '');
  if (raw === '') return null;
  const member = findEnumMember(field, raw);
  if (member !== undefined) return { value: member, raw, end: pos + raw.length, fit: 'ok' };
  if (!acceptMiss) return null;
  // A miss keeps the user's token, typed like the options where it can be (`3` for numeric options).
  const numeric = NUMERAL.test(raw) && field.enum.every((option) => typeof option === 'number');
  return { value: numeric ? Number(raw) : raw, raw, end: pos + raw.length, fit: 'not_an_option' };
}

function sameOption(member: unknown, written: unknown): boolean {
  const a = typeof member === 'number' ? String(member) : member;
  const b = typeof written === 'number' ? String(written) : written;
  if (typeof a !== 'string' || typeof b !== 'string') return false;
  if (NUMERAL.test(a) && NUMERAL.test(b)) return Number(a) === Number(b);
  return optionKey(a) === optionKey(b);
}

function optionKey(text: string): string {
  return text.toLowerCase().replace(/[_\s]+/g, ' ').trim();
}
