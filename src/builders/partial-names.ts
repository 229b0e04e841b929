/**
 * Settings written with part of an input's name, or its words run together: `quality 90` for output_quality,
 * `noise level 25` for noise, `512 size` for size_of_image, `font size 9` for fontsize, `50 bars` for bar_count,
 * `fps 8` for frames_per_second (a name's initials), `eye retargeting on`. A label of at most three words right
 * before a value (or right after a number) names an input when its words are a run of that input's name or
 * title words, joined or apart, a plural `s` aside. Such a phrase is placed only when exactly one input has
 * that run and the value fits it, in a clause of its own; otherwise it is reported as unplaced
 * (leftover-notes.ts), never dropped. A label naming no input is reported when it is a common setting name
 * (`100 epochs` for a model that takes none).
 */
import type { FieldSpec } from '../generated/contracts.ts';
import { makeDirective } from './clause-words.ts';
import type { Directive, RuleContext, Span } from './directive-types.ts';
import { fieldNames, identifierWords } from './field-vocabulary.ts';
import { READING_RULE_PREFIX } from './reading-rule.ts';
import { endsToken, findEnumMember, fitOf, hasEnum, readTypedValue, type Fit } from './value-reading.ts';

/** Name words too vague alone to name an input (`num`, `image`, `max`): they count only with a word that is not. */
const VAGUE_WORDS = new Set([
  'a', 'an', 'and', 'at', 'by', 'custom', 'default', 'disable', 'do', 'enable', 'for', 'in', 'input', 'image', 'images',
  'is', 'max', 'maximum', 'min', 'minimum', 'mode', 'model', 'n', 'num', 'number', 'of', 'on', 'or', 'output',
  'per', 'prompt', 'the', 'to', 'type', 'use', 'video', 'audio', 'with', 'value', 'live', 'text', 'file', 'new',
]);

/** Words a person puts between a setting's name and its value (`noise level 25`); `a seed of 42` is the picture's. */
const CONNECTORS = new Set(['level', 'value', 'amount', 'setting']);

/**
 * Setting names common across the catalog: written next to a value and alone in its clause, the phrase asks for
 * a setting even when this model has no input of that name, so it is reported rather than dropped.
 */
const SETTING_NAMES = [
  'quality', 'fps', 'epochs', 'epoch', 'strength', 'noise', 'noise level', 'temperature', 'bpm', 'speed', 'volume',
  'scale', 'bitrate', 'iterations', 'rank', 'lora rank', 'creativity', 'resemblance', 'denoise', 'threshold', 'seed',
  'steps', 'width', 'height', 'guidance', 'cfg', 'size', 'resolution', 'max tokens', 'tokens', 'top p', 'top k',
  'batch size', 'learning rate', 'sample rate', 'fidelity', 'motion', 'frames', 'samples', 'font size', 'crf',
];
const SETTING_KEYS = new Set(SETTING_NAMES.map((name) => name.replace(/ /g, '')));

/** A label and a value side by side, with the inputs the label may name. */
export interface NamedValue extends Span {
  phrase: string;
  /** The label as written. */
  label: string;
  /** Inputs whose name the label is part of; one when it names an input unambiguously. */
  fields: readonly FieldSpec[];
  /** The value read for the one input (undefined when the label names no input or several). */
  value?: { value: unknown; raw: string; fit: Fit };
  /** `quality: 90`: an assignment names a setting wherever it stands. */
  assigned: boolean;
  /** The value ends the phrase (`quality 90`, not `512 size`). */
  valueLast: boolean;
}

interface Token extends Span {
  text: string;
  kind: 'word' | 'number' | 'mark';
}

const TOKENS = /\p{L}+|\d+(?:[.,]\d+)?|[^\s\p{L}\p{N}]/gu;
const BOOLEAN_WORDS = new Set(['on', 'off', 'true', 'false', 'yes', 'no', 'enabled', 'disabled']);
const MAX_LABEL_WORDS = 3;

/** Every label-and-value phrase of the text that names one of the fields, or a common setting. */
export function findNamedValues(text: string, fields: readonly FieldSpec[]): NamedValue[] {
  const keys = labelKeys(fields);
  const tokens: Token[] = [...text.matchAll(TOKENS)].map((match) => {
    const token = match[0];
    const kind = /^\p{L}/u.test(token) ? 'word' : /^\d/.test(token) ? 'number' : 'mark';
    return { text: token, kind, start: match.index, end: match.index + token.length };
  });
  const found: NamedValue[] = [];
  tokens.forEach((token, index) => {
    const isBoolean = token.kind === 'word' && BOOLEAN_WORDS.has(token.text.toLowerCase());
    if (token.kind !== 'number' && !isBoolean) return;
    const before = labelBefore(text, tokens, index, keys);
    if (before) {
      found.push(namedValue(text, before, token, true));
      return;
    }
    if (token.kind !== 'number') return;
    const after = labelAfter(text, tokens, index, keys);
    if (after) found.push(namedValue(text, after, token, false));
  });
  return found;
}

/** labelKeys by the fields it was made for; two reads of one text ask for the same fields' keys. */
let lastKeys: { fields: readonly FieldSpec[]; shape: string; keys: Map<string, FieldSpec[]> } | undefined;

/**
 * The fields whose name or title words hold each run of words, run together (`fontsize`, `outputquality`). The
 * map is kept for the fields last asked about, while they are the same objects with the same names and titles.
 */
function labelKeys(fields: readonly FieldSpec[]): Map<string, FieldSpec[]> {
  const shape = fields.map((field) => `${field.name}\u0001${field.title ?? ''}`).join('\u0000');
  if (lastKeys && lastKeys.shape === shape && lastKeys.fields.length === fields.length && lastKeys.fields.every((field, index) => field === fields[index])) return lastKeys.keys;
  const keys = buildLabelKeys(fields);
  lastKeys = { fields: [...fields], shape, keys };
  return keys;
}

function buildLabelKeys(fields: readonly FieldSpec[]): Map<string, FieldSpec[]> {
  const keys = new Map<string, FieldSpec[]>();
  const add = (key: string, field: FieldSpec) => {
    const list = keys.get(key) ?? [];
    if (!list.includes(field)) list.push(field);
    keys.set(key, list);
  };
  for (const field of fields) {
    for (const name of fieldNames(field, false)) add(name.replace(/ /g, ''), field);
    for (const words of [identifierWords(field.name), identifierWords(field.title ?? '')].map((name) => name.split(' ').filter(Boolean))) {
      for (let from = 0; from < words.length; from += 1) {
        for (let to = from + 1; to <= Math.min(words.length, from + MAX_LABEL_WORDS); to += 1) {
          const run = words.slice(from, to);
          if (run.every((word) => VAGUE_WORDS.has(word) || word.length < 3)) continue;
          add(run.join(''), field);
        }
      }
      if (words.length >= 3) add(words.map((word) => word[0]).join(''), field);
    }
  }
  return keys;
}

interface Label {
  label: Span & { text: string };
  fields: FieldSpec[];
  assigned: boolean;
}

/** `quality 90`, `noise level: 25`, `BPM110`: up to three words right before the value, longest first. */
function labelBefore(text: string, tokens: readonly Token[], index: number, keys: Map<string, FieldSpec[]>): Label | undefined {
  let at = index - 1;
  let assigned = false;
  if (tokens[at]?.kind === 'mark' && /^[:=]$/.test(tokens[at]?.text ?? '')) {
    assigned = true;
    at -= 1;
  }
  const words: Token[] = [];
  for (let i = at; i >= 0 && words.length < MAX_LABEL_WORDS + 1; i -= 1) {
    const token = tokens[i];
    const next = tokens[i + 1];
    if (token?.kind !== 'word' || !next || !/^[\s_-]*$/.test(text.slice(token.end, next.start))) break;
    words.unshift(token);
  }
  return longestLabel(text, words, keys, 'end', assigned, tokens[index]?.kind ?? 'word');
}

/** `512 size`, `50 bars`, `30fps`: up to three words right after a number, longest first. */
function labelAfter(text: string, tokens: readonly Token[], index: number, keys: Map<string, FieldSpec[]>): Label | undefined {
  const words: Token[] = [];
  for (let i = index + 1; i < tokens.length && words.length < MAX_LABEL_WORDS; i += 1) {
    const token = tokens[i];
    const previous = tokens[i - 1];
    if (token?.kind !== 'word' || !previous || !/^[\s_-]*$/.test(text.slice(previous.end, token.start))) break;
    words.push(token);
  }
  return longestLabel(text, words, keys, 'start', false, 'number');
}

/** The longest run of the words, kept at the value's side, that names something; a connector word aside. */
function longestLabel(text: string, words: readonly Token[], keys: Map<string, FieldSpec[]>, side: 'start' | 'end', assigned: boolean, valueKind: Token['kind']): Label | undefined {
  for (let length = Math.min(words.length, MAX_LABEL_WORDS + 1); length >= 1; length -= 1) {
    const run = side === 'end' ? words.slice(words.length - length) : words.slice(0, length);
    const named = run.length > 1 && side === 'end' && CONNECTORS.has(run[run.length - 1]?.text.toLowerCase() ?? '') ? run.slice(0, -1) : run;
    if (named.length > MAX_LABEL_WORDS) continue;
    const fields = lookUp(named.map((word) => word.text.toLowerCase()), keys, valueKind);
    if (fields === undefined) continue;
    const first = run[0] as Token;
    const last = run[run.length - 1] as Token;
    return { label: { start: first.start, end: last.end, text: text.slice(first.start, last.end) }, fields, assigned };
  }
  return undefined;
}

/** The fields the words name (a plural `s` aside), or [] for a common setting name no field has; undefined for none. */
function lookUp(words: readonly string[], keys: Map<string, FieldSpec[]>, valueKind: Token['kind']): FieldSpec[] | undefined {
  const joined = words.join('');
  if (joined.length < 3 || words.every((word) => VAGUE_WORDS.has(word))) return undefined;
  const singular = joined.endsWith('s') ? joined.slice(0, -1) : joined;
  const fields = keys.get(joined) ?? keys.get(singular);
  // `50 bars` for a model with `bars_color` and `bar_count`: of the inputs named as written or in the singular,
  // the one number-taking input is meant.
  const numeric = [...new Set([...(keys.get(joined) ?? []), ...(keys.get(singular) ?? [])])].filter(takesNumber);
  if (valueKind === 'number' && numeric.length === 1 && fields?.every((field) => !takesNumber(field))) return numeric;
  if (fields) return wholeNameFirst(fields, joined);
  return SETTING_KEYS.has(joined) || SETTING_KEYS.has(singular) ? [] : undefined;
}

function takesNumber(field: FieldSpec): boolean {
  return field.type === 'integer' || field.type === 'number';
}

/** `scale 2` for a model with `scale` and `guidance_scale`: the input named whole is the one meant. */
function wholeNameFirst(fields: FieldSpec[], key: string): FieldSpec[] {
  if (fields.length < 2) return fields;
  const whole = fields.filter((field) => fieldNames(field, false).some((name) => name.replace(/ /g, '') === key));
  return whole.length === 1 ? whole : fields;
}

function namedValue(text: string, { label, fields, assigned }: Label, token: Token, valueLast: boolean): NamedValue {
  const field = fields.length === 1 ? fields[0] : undefined;
  const value = field ? readValueAt(text, token, field) : undefined;
  const valueEnd = value ? token.start + value.raw.length : token.end;
  const start = Math.min(label.start, token.start);
  const end = Math.max(label.end, valueEnd);
  return { start, end, phrase: text.slice(start, end), label: label.text, fields, ...(value ? { value } : {}), assigned, valueLast };
}

const DECIMAL = /\d+(?:\.\d+)?/y;
const DECIMAL_COMMA = /,(\d{1,3})(?![\p{N}]|[.,]\d)/uy;

/** The field's value at the token: a switch word for a boolean, else a number (a decimal comma for a fraction). */
function readValueAt(text: string, token: Token, field: FieldSpec): NamedValue['value'] {
  if (field.type === 'boolean') {
    const read = token.kind === 'word' ? readTypedValue(text, token.start, field, false) : null;
    return read ? { value: read.value, raw: read.raw, fit: read.fit } : undefined;
  }
  if (token.kind !== 'number') return undefined;
  DECIMAL.lastIndex = token.start;
  let raw = DECIMAL.exec(text)?.[0] ?? '';
  DECIMAL_COMMA.lastIndex = token.start + raw.length;
  const comma = field.type === 'number' && /^\d+$/.test(raw) ? DECIMAL_COMMA.exec(text) : null;
  if (comma) raw += comma[0];
  const number = Number(raw.replace(',', '.'));
  if (!Number.isFinite(number) || (field.type === 'integer' && !Number.isSafeInteger(number))) return undefined;
  if (hasEnum(field)) {
    const member = findEnumMember(field, String(number));
    return member === undefined ? { value: number, raw, fit: 'not_an_option' } : { value: member, raw, fit: 'ok' };
  }
  if (field.type !== 'integer' && field.type !== 'number') return undefined;
  return { value: number, raw, fit: fitOf(field, number) };
}

/**
 * The phrases that name one input, with a value that fits it, as loose directives: placed only in a clause of
 * their own (`a temple with 100 steps` keeps its steps), or anywhere after `:` or `=`.
 */
export function partialNameRule(context: RuleContext): Directive[] {
  return findNamedValues(context.text, context.typedFields).flatMap((found) => {
    const field = found.fields.length === 1 ? found.fields[0] : undefined;
    if (!field || found.value?.fit !== 'ok') return [];
    // The value must end its word: `90s` is a decade, `4x` a multiple.
    if (found.valueLast && !endsToken(context.text, found.end)) return [];
    const rule = found.value.raw.includes(',') ? `${READING_RULE_PREFIX}decimal_comma` : 'named';
    const directive = makeDirective(context.text, found.start, found.end, found.assigned ? 'named' : 'loose', rule, [{ field: field.name, value: found.value.value, fit: 'ok' }]);
    return [{ ...directive, needsOwnClause: !found.assigned }];
  });
}
