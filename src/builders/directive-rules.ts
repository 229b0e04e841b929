/**
 * The rules that find explicit values in the prompt by field name or value shape (`seed=42`, `width 768`,
 * `768x512`, `as png`, `DDIM scheduler`); phrase-rules.ts and ratio-rules.ts have the rest. Each rule returns
 * candidate directives; the scanner (prompt-directives.ts) settles overlaps and context. Every value is a token
 * the user wrote, read by value-reading.ts, so a directive can always cite its phrase as evidence.
 */
import type { FieldSpec } from '../generated/contracts.ts';
import { clauseEndsAt, isFillerOnly, isNumeric, makeDirective, windowBefore } from './clause-words.ts';
import { isUnspaced } from '../reading/index.ts';
import { UNSPACED_CHAR, WORD_CHAR, type Directive, type DirectiveForm, type RuleContext } from './directive-types.ts';
import { ROLE_KEYWORDS, escapeRegExp, fieldNames, identifierWords, phrasePattern } from './field-vocabulary.ts';

/** Every role keyword of every role (`negative prompt`, `inference steps`, `guidance scale`). */
const ALL_ROLE_KEYWORDS: ReadonlySet<string> = new Set(Object.values(ROLE_KEYWORDS).flat());
import { fieldPattern } from './pattern-cache.ts';
import { endsToken, findEnumMember, fitOf, hasEnum, looksLikeOptions, readNumberToken, readTypedValue, type ReadValue } from './value-reading.ts';
import { READING_RULE_PREFIX } from './reading-rule.ts';

/** `and` written as a prefix of the next word, in Hebrew and Arabic. */
const AND_CLITIC = '[\u05D5\u0648]';
const ASSIGN_SEPARATOR = /\s*[=:：]\s*/y;
/** After a name in a script without spaces, the value may follow at once or after a topic particle (`シードは2025`). */
const UNSPACED_SEPARATOR = /(?:\s*[はを]\s*)?/y;
const WORD_SEPARATOR = /\s+(?:is|to)\s+/iy;
const SPACE_SEPARATOR = /[ \t]+/y;
/** After `height 6`, these words mean the number is not a setting (`a man of height 6 feet`). */
const UNIT_AFTER = /^\s*(?:%|(?:feet|foot|ft|inch(?:es)?|cm|mm|m|meters?|metres?|km|miles?|kg|lbs?|pounds|years?|old|tall|high|wide|long|deep|degrees?|percent|times|people|persons)(?![\p{L}\p{N}_]))/iu;

/** `<name> = value`, `<name>: value`, `--name value`, `<name> value`, `<name> is value` for typed fields. */
export function namedValueRule(context: RuleContext): Directive[] {
  const found: Directive[] = [];
  for (const field of context.typedFields) {
    const label = namedLabel(field, context.primary.get(field.role) === field);
    for (const match of context.text.matchAll(label)) {
      if (labelBelongsElsewhere(context, field, match)) continue;
      const directive = readNamed(context.text, match, field);
      if (directive) found.push(directive);
    }
  }
  return found;
}

/**
 * The field's label: an optional `--`, then its name, title or (for a role's primary field) a role keyword.
 * Group 1 is the `--`, group 2 the name as written.
 */
export function namedLabel(field: FieldSpec, isPrimary: boolean): RegExp {
  const pattern = fieldPattern(field, `named:${isPrimary}`, () => {
    const names = fieldNames(field, isPrimary).map(phrasePattern).join('|');
    // A name in a script written without spaces (`シード`) needs no boundary: nothing separates it from its neighbours.
    // Hebrew and Arabic join `and` to the next word (`וגובה 512`, `والارتفاع 512`): the name after it is still the name.
    return new RegExp(`(?:(?=${UNSPACED_CHAR})|(?<![\\p{L}\\p{N}_-])(?:${AND_CLITIC})?)(--)?(${names})(?:(?<=${UNSPACED_CHAR})|(?!${WORD_CHAR}))`, 'giu');
  });
  if (!pattern) throw new Error(`no label pattern for ${field.name}`);
  return pattern;
}

const PREVIOUS_WORD = /([\p{L}\p{N}]+)[\s_-]+$/u;
/** A possessive right before a name: `Michael's voice`, `the narrator’s style`. */
const POSSESSED = /\p{L}['’]s\s+$/u;

/**
 * True when the word before the label makes it a different name: `prompt` in `negative prompt: blurry`,
 * `steps` in `refine steps 10`. Such a label belongs to another field or role (or to nothing in this model).
 */
export function labelBelongsElsewhere(context: RuleContext, field: FieldSpec, match: RegExpExecArray): boolean {
  if (match[1] !== undefined) return false;
  const previous = PREVIOUS_WORD.exec(windowBefore(context.text, match.index));
  if (!previous) return false;
  const longer = identifierWords(`${previous[1] ?? ''} ${match[2] ?? ''}`);
  if (ALL_ROLE_KEYWORDS.has(longer)) return !fieldNames(field, context.primary.get(field.role) === field).includes(longer);
  return context.isKnownName(longer, field);
}

function readNamed(text: string, match: RegExpExecArray, field: FieldSpec): Directive | null {
  const start = match.index;
  const labelEnd = start + match[0].length;
  const dashed = match[1] !== undefined;
  const separator = readSeparator(text, labelEnd);
  // `in Michael's voice: The meeting…`: a name owned by the word before it says whose, and what follows is content.
  if (separator?.kind === 'assign' && !dashed && POSSESSED.test(text.slice(Math.max(0, start - 8), start))) return null;
  if (separator === null) {
    // A bare `--face_enhance` switches a boolean on.
    if (dashed && field.type === 'boolean' && endsToken(text, labelEnd)) {
      return makeDirective(text, start, labelEnd, 'assign', 'named', [{ field: field.name, value: true, fit: 'ok' }]);
    }
    return null;
  }
  const form: DirectiveForm =
    dashed || separator.kind === 'assign'
      ? 'assign'
      : separator.kind === 'space' && !fieldNames(field, false).includes(identifierWords(match[2] ?? ''))
        ? 'loose'
        : 'named';
  // Values that are not options are kept only where the user plainly addressed this field.
  const acceptMiss = form !== 'loose';
  const read = withDecimalComma(text, readTypedValue(text, separator.end, field, acceptMiss), field);
  if (!read) return null;
  if (read.fit !== 'ok') {
    if (form === 'loose') return null;
    if (form === 'named' && read.fit === 'not_an_option' && !looksLikeOptions(field, read.raw)) return null;
  }
  if (separator.kind === 'space' && typeof read.value === 'number' && UNIT_AFTER.test(text.slice(read.end))) return null;
  // Without `=`, `:` or `--`, a one-word name right after a content word, with a free number or switch after it,
  // is part of the description (`random seed 42`, `refine steps 10` for a model without refine steps), unless it
  // is a seed number ending the prompt.
  const oneWord = !/[\s_-]/.test(match[2] ?? '');
  if (form !== 'assign' && oneWord && !hasEnum(field) && afterContentWord(text, start) && !isTrailingSeed(text, field, start, read.end)) {
    return null;
  }
  const rule = read.raw.includes(',') ? `${READING_RULE_PREFIX}decimal_comma` : 'named';
  return makeDirective(text, start, read.end, form, rule, [{ field: field.name, value: read.value, fit: read.fit }]);
}

const DECIMAL_PART = /,(\d{1,3})(?![\p{N}]|[.,]\d)/uy;

/**
 * `Temperatur 0,4`: most of the reading languages write a decimal comma. For a field that takes fractions, a
 * comma right between digits continues the number (the reading conversion `decimal_comma` gives the value, so
 * the validator can re-derive it); `width 1,024` stays a whole number's business.
 */
function withDecimalComma(text: string, read: ReadValue | null, field: FieldSpec): ReadValue | null {
  if (!read || field.type !== 'number' || typeof read.value !== 'number' || !/^\d+$/.test(read.raw)) return read;
  DECIMAL_PART.lastIndex = read.end;
  const decimals = DECIMAL_PART.exec(text);
  if (!decimals) return read;
  const value = Number(`${read.raw}.${decimals[1] ?? ''}`);
  return { value, raw: `${read.raw}${decimals[0]}`, end: read.end + decimals[0].length, fit: fitOf(field, value) };
}

/** Words that make `<word> seed` the name of another input (random_seed, image_seed, manual_seed in real models). */
const SEED_QUALIFIERS: ReadonlySet<string> = new Set(['random', 'image', 'manual', 'noise', 'variation']);
const PROMPT_END = /^\s*[.!]?\s*$/;

/**
 * `a red fox seed 42`: `seed <number>` ending the whole prompt is a setting even right after a content word
 * (a missing comma, not a seed in the picture). Only the seed: `stone steps 100` may well be the picture.
 */
function isTrailingSeed(text: string, field: FieldSpec, start: number, end: number): boolean {
  if (field.role !== 'seed' || !PROMPT_END.test(text.slice(end))) return false;
  const previous = PREVIOUS_WORD.exec(windowBefore(text, start))?.[1]?.toLowerCase() ?? '';
  return !SEED_QUALIFIERS.has(previous);
}

function afterContentWord(text: string, start: number): boolean {
  const previous = PREVIOUS_WORD.exec(windowBefore(text, start));
  // `width 1024 height 768`: a number before the name is another setting's value, not a word of the picture.
  return previous !== null && !isFillerOnly(previous[1] ?? '') && !/^\p{N}+$/u.test(previous[1] ?? '');
}

function readSeparator(text: string, at: number): { end: number; kind: 'assign' | 'word' | 'space' } | null {
  if (isUnspaced(text[at - 1] ?? '') && !assignsAt(text, at)) {
    UNSPACED_SEPARATOR.lastIndex = at;
    return { end: at + (UNSPACED_SEPARATOR.exec(text)?.[0].length ?? 0), kind: 'word' };
  }
  for (const [pattern, kind] of [
    [ASSIGN_SEPARATOR, 'assign'],
    [WORD_SEPARATOR, 'word'],
    [SPACE_SEPARATOR, 'space'],
  ] as const) {
    pattern.lastIndex = at;
    const match = pattern.exec(text);
    if (match) return { end: at + match[0].length, kind };
  }
  return null;
}

const SIZE = /(?<![\p{L}\p{N}_.])(\d{2,5})\s*[x×]\s*(\d{2,5})/gu;

/** `768x512` → width 768 and height 512, when the model has both. The shape is unambiguous, so it ranks as named. */
const ARTICLE_BEFORE = /(?:^|[^\p{L}\p{N}_])(?:a|an|the|my|this|that|one|old|new)\s+$/iu;
/** `a 1024x768 image of a cat`: the size of what is made, which the article does not change. */
const PICTURE_NOUN_AFTER = /^\s+(?:image|images|picture|pictures|photo|photos|pic|render|rendering|wallpaper|illustration|painting|poster|artwork|version|frame|video)(?![\p{L}\p{N}_])/iu;

export function sizeRule(context: RuleContext): Directive[] {
  const width = context.primary.get('width');
  const height = context.primary.get('height');
  if (!width || !height || !isNumeric(width) || !isNumeric(height)) return [];
  const found: Directive[] = [];
  for (const match of context.text.matchAll(SIZE)) {
    const end = match.index + match[0].length;
    const tail = readNumberToken(context.text, end - (match[2] ?? '').length);
    if (!tail) continue;
    // `a 1920x1080 monitor on a desk`: an article right before and a word right after make it part of the
    // picture, not its size.
    if (ARTICLE_BEFORE.test(windowBefore(context.text, match.index)) && !clauseEndsAt(context.text, tail.end) && !PICTURE_NOUN_AFTER.test(context.text.slice(tail.end))) continue;
    const w = Number(match[1]);
    const h = Number(match[2]);
    found.push(
      makeDirective(context.text, match.index, tail.end, 'named', 'size', [
        { field: width.name, value: w, fit: fitOf(width, w) },
        { field: height.name, value: h, fit: fitOf(height, h) },
      ]),
    );
  }
  return found;
}

/** Option words too common in prose to read as a format after `in`/`as`. */
const COMMON_WORDS = new Set(['auto', 'none', 'text', 'same', 'best', 'high', 'low', 'fast', 'default', 'plain', 'raw', 'original']);

/** `as png`, `in jpg`, `png format` → output_format, when the word is one of its options. */
export function formatRule(context: RuleContext): Directive[] {
  const field = context.primary.get('output_format');
  if (!field || !hasEnum(field)) return [];
  const pattern = fieldPattern(field, 'format', () => formatPattern(field.enum));
  if (!pattern) return [];
  const found: Directive[] = [];
  for (const match of context.text.matchAll(pattern)) {
    const member = findEnumMember(field, match[1] ?? match[2] ?? '');
    if (member === undefined) continue;
    const end = match.index + match[0].length;
    found.push(makeDirective(context.text, match.index, end, 'loose', 'format', [{ field: field.name, value: member, fit: 'ok' }]));
  }
  return found;
}

function formatPattern(options: readonly unknown[]): RegExp | null {
  const words = options
    .filter((member): member is string => typeof member === 'string' && /^[a-z0-9]{2,5}$/i.test(member))
    .filter((member) => !COMMON_WORDS.has(member.toLowerCase()));
  if (words.length === 0) return null;
  const members = words.map(escapeRegExp).join('|');
  return new RegExp(
    `(?<![\\p{L}\\p{N}_])(?:(?:as|in|to|into)\\s+(?:an?\\s+)?(${members})(?:\\s+(?:format|files?|images?))?|(${members})\\s+(?:format|files?))(?!${WORD_CHAR})`,
    'giu',
  );
}

/** `DDIM scheduler`, `French language`: an option of an enum field followed by the field's name. */
export function optionThenNameRule(context: RuleContext): Directive[] {
  const found: Directive[] = [];
  for (const field of context.typedFields) {
    if (!hasEnum(field)) continue;
    const isPrimary = context.primary.get(field.role) === field;
    const pattern = fieldPattern(field, `option:${isPrimary}`, () => optionThenNamePattern(field, isPrimary));
    if (!pattern) continue;
    for (const match of context.text.matchAll(pattern)) {
      const member = findEnumMember(field, match[1] ?? '');
      if (member === undefined) continue;
      const end = match.index + match[0].length;
      found.push(makeDirective(context.text, match.index, end, 'loose', 'option', [{ field: field.name, value: member, fit: 'ok' }]));
    }
  }
  return found;
}

function optionThenNamePattern(field: FieldSpec, isPrimary: boolean): RegExp | null {
  const members = (field.enum ?? []).filter((member): member is string => typeof member === 'string' && member.length >= 2);
  if (members.length === 0) return null;
  const options = [...members].sort((a, b) => b.length - a.length).map(optionPattern);
  const names = fieldNames(field, isPrimary).map(phrasePattern);
  return new RegExp(`(?<![\\p{L}\\p{N}_:.])(${options.join('|')})\\s+(?:${names.join('|')})(?!${WORD_CHAR})`, 'giu');
}

/** An option as a pattern that also accepts spaces or dashes for its underscores (`K_EULER`, `k euler`). */
function optionPattern(member: string): string {
  return member.split(/[_\s]+/).map(escapeRegExp).join('[\\s_-]+');
}

function assignsAt(text: string, at: number): boolean {
  ASSIGN_SEPARATOR.lastIndex = at;
  return ASSIGN_SEPARATOR.test(text);
}
