/**
 * Numbers that say which field they set by the words around them (words/quantities.json): a number followed by
 * the unit a field is named for (`300 токенов` → max_tokens, `40 pasos` → steps, `95 bpm` → bpm, `tres
 * variaciones` → variations), a maximum written around it (`no more than 300 tokens`, `最大50トークン`, `5 pages
 * maximum`), and a number written with a decimal comma (`Temperatur 0,4` → 0.4). Each is a named conversion, so
 * the validator re-derives the value from the cited words.
 */
import { readFileSync } from 'node:fs';
import type { FieldSpec } from '../generated/contracts.ts';
import { fromPackageRoot } from '../util/package-root.ts';
import { numberForField, type Converted } from './field-values.ts';
import { hasOptions, isNumericField, nameWords, numericOptions } from './fields.ts';
import { DIGIT, DIGITS, numberSource, parseWrittenNumber } from './numbers.ts';
import { anyWord } from './patterns.ts';
import { foldWord } from './words.ts';

type Groups = Record<string, string | undefined>;

interface QuantityFile {
  units: Record<string, string[]>;
  unitNames: Record<string, string>;
  firmUnits: string[];
  limitLeads: Record<string, string[]>;
  limitTrails: Record<string, string[]>;
  widthWords: Record<string, string[]>;
  heightWords: Record<string, string[]>;
  sizeJoins: Record<string, string[]>;
  multiples: Record<string, Record<string, number>>;
  timesTrails: Record<string, string[]>;
  timesLeads: Record<string, string[]>;
  enlargeVerbs: Record<string, string[]>;
}

/** The lists merged over the languages (a request may mix them), lower-cased. */
export interface QuantityWords {
  /** Unit key (`tokens`) → how it is written after a number, in every language. */
  units: ReadonlyMap<string, readonly string[]>;
  /** A field's name words that mean a unit under another name (`frame rate` → fps). */
  unitNames: ReadonlyMap<string, string>;
  firmUnits: ReadonlySet<string>;
  limitLeads: readonly string[];
  limitTrails: readonly string[];
  widthWords: readonly string[];
  heightWords: readonly string[];
  sizeJoins: readonly string[];
  /** A word for a number of times (`double`, `al doble`, `вдвое`) → that number. */
  multiples: ReadonlyMap<string, number>;
  timesTrails: readonly string[];
  timesLeads: readonly string[];
  enlargeVerbs: readonly string[];
}

let loaded: QuantityWords | undefined;

export function quantityWords(): QuantityWords {
  if (loaded) return loaded;
  const raw = JSON.parse(readFileSync(fromPackageRoot('src', 'reading', 'words', 'quantities.json'), 'utf8')) as QuantityFile;
  const merged = (lists: Record<string, string[]>) => [...new Set(Object.values(lists).flat().map(foldWord))];
  loaded = {
    units: new Map(Object.entries(raw.units).map(([key, words]) => [key, [...new Set(words.map(foldWord))]])),
    unitNames: new Map(Object.entries(raw.unitNames).map(([name, key]) => [foldWord(name), key])),
    firmUnits: new Set(raw.firmUnits),
    limitLeads: merged(raw.limitLeads),
    limitTrails: merged(raw.limitTrails),
    widthWords: merged(raw.widthWords),
    heightWords: merged(raw.heightWords),
    sizeJoins: merged(raw.sizeJoins),
    multiples: new Map(Object.values(raw.multiples).flatMap((words) => Object.entries(words).map(([word, times]) => [foldWord(word), times] as const))),
    timesTrails: merged(raw.timesTrails),
    timesLeads: merged(raw.timesLeads),
    enlargeVerbs: merged(raw.enlargeVerbs),
  };
  return loaded;
}

/** Name words that say how a number is used, not what it counts: `max_new_tokens` counts tokens. */
const QUALIFIERS = new Set(['max', 'maximum', 'num', 'number', 'of', 'n', 'total', 'new', 'output', 'inference', 'sampling', 'denoising', 'diffusion', 'train', 'training', 'count', 'target', 'per', 'desired']);
/** A field for a lower bound is never what `40 steps` or `max 40 steps` sets. */
const LOWER_BOUND = new Set(['min', 'minimum']);

/** The unit a numeric field is named for (`max_new_tokens` → tokens, `bar_count` → bars), or undefined. */
export function unitOfField(field: FieldSpec): string | undefined {
  if (!(isNumericField(field) && !hasOptions(field)) && !numericOptions(field)) return undefined;
  const words = nameWords(field.name);
  if (words.some((word) => LOWER_BOUND.has(word))) return undefined;
  const { units, unitNames } = quantityWords();
  const whole = words.join(' ');
  const named = unitNames.get(whole);
  if (named) return named;
  const rest = words.filter((word) => !QUALIFIERS.has(word)).join(' ');
  if (rest === '') return undefined;
  const renamed = unitNames.get(rest);
  if (renamed) return renamed;
  for (const key of [rest, `${rest}s`, rest.replace(/s$/, '')]) if (units.has(key)) return key;
  return undefined;
}

/** Whether the name says the field is a maximum (`max_tokens`, `max_pages`). */
export function isLimitField(field: FieldSpec): boolean {
  return nameWords(field.name).some((word) => word === 'max' || word === 'maximum');
}

const patternCache = new Map<string, RegExp>();

function cached(key: string, build: () => string): RegExp {
  let pattern = patternCache.get(key);
  if (!pattern) {
    pattern = new RegExp(build(), 'giu');
    patternCache.set(key, pattern);
  }
  return pattern;
}

/** `[limit] <number> <unit> [limit]` for the field's unit. */
export function unitNumberPattern(unit: string): RegExp | null {
  const words = quantityWords();
  const written = words.units.get(unit);
  if (!written || written.length === 0) return null;
  return cached(`unit:${unit}`, () => {
    const lead = `(?:(?<lead>${anyWord(words.limitLeads)})\\s*-?\\s*)?`;
    const trail = `(?:\\s*(?<trail>${anyWord(words.limitTrails)}))?`;
    return `${lead}(?<number>${numberSource()})\\s*-?\\s*(?<unit>${anyWord(written)})${trail}`;
  });
}

/** A number with a unit is a setting wherever it stands when the unit is never content, or a maximum is said. */
export function isFirmUnitNumber(groups: Groups, unit: string): boolean {
  return groups.lead !== undefined || groups.trail !== undefined || quantityWords().firmUnits.has(unit);
}

export const unitNumber = {
  pattern(field: FieldSpec): RegExp | null {
    const unit = unitOfField(field);
    return unit === undefined ? null : unitNumberPattern(unit);
  },
  convert(groups: Groups, field: FieldSpec): Converted | undefined {
    const number = parseWrittenNumber(groups.number ?? '');
    return number === undefined ? undefined : numberForField(number, field);
  },
};

/** `0,4` with no space after the comma: a decimal comma, as most of the reading languages write it. */
const DECIMAL_COMMA = `(?<![\\p{N}.,])(?<number>${DIGIT}{1,6},${DIGIT}{1,3})(?![\\p{N}]|[.,]${DIGIT})`;

export const decimalComma = {
  pattern(field: FieldSpec): RegExp | null {
    // Only a field that takes fractions: `width 1,024` is a thousands separator, not a decimal comma.
    return field.type === 'number' ? cached('decimal-comma', () => DECIMAL_COMMA) : null;
  },
  convert(groups: Groups, field: FieldSpec): Converted | undefined {
    const number = parseWrittenNumber(groups.number ?? '');
    return number === undefined ? undefined : numberForField(number, field);
  },
};

/** Every unit written after a number, in every language: to notice a limit nobody could place. */
export function anyUnitNumberPattern(): RegExp {
  const words = quantityWords();
  return cached('any-unit', () => {
    const units = [...words.units.values()].flat();
    return `(?:(?<lead>${anyWord(words.limitLeads)})\\s*-?\\s*)?(?<number>${numberSource()})\\s*-?\\s*(?<unit>${anyWord(units)})(?:\\s*(?<trail>${anyWord(words.limitTrails)}))?`;
  });
}

/** The unit key a written unit word belongs to. */
export function unitKeyOf(written: string): string | undefined {
  const folded = foldWord(written);
  for (const [key, words] of quantityWords().units) if (words.includes(folded)) return key;
  return undefined;
}

/** `0,4` in the text when it is this number for this field: the phrase a decimal-comma claim cites. */
export function decimalCommaPhrase(text: string, field: FieldSpec, value: number): string | undefined {
  const pattern = decimalComma.pattern(field);
  if (!pattern) return undefined;
  for (const match of text.matchAll(pattern)) {
    if (decimalComma.convert(match.groups ?? {}, field)?.value === value) return match[0];
  }
  return undefined;
}

// ---- multiples ---------------------------------------------------------------------------------------------------

/** Digits alone, as a number of times (`4x`). */
const DIGITS_SOURCE = `(?<![\\p{N}.,])${DIGITS}`;

/** The names of a field that takes how many times bigger the output is. */
const SCALE_NAMES = new Set(['scale', 'upscale', 'scale factor', 'upscale factor', 'upscaling factor', 'outscale', 'upscale by']);

/** The field that takes a number of times bigger (`scale`, `upscale_factor`): numeric, or numeric options. */
export function scaleField(fields: readonly FieldSpec[]): FieldSpec | undefined {
  return fields.find((field) => SCALE_NAMES.has(nameWords(field.name).join(' ')) && ((isNumericField(field) && !hasOptions(field)) || numericOptions(field)));
}

/** `4 times`, `4x`, `x4`, `quatre fois`, `в 2 раза`, `פי 4`, `2倍`, `double`, `al doble`, `zweifach`, `вдвое`. */
export function multiplePattern(): RegExp {
  const words = quantityWords();
  return cached('multiple', () => {
    const leads = anyWord(words.timesLeads);
    const counted = `(?:(?<lead>${leads})\\s*)?(?<number>${numberSource()})\\s*-?\\s*(?<trail>${anyWord(words.timesTrails)})`;
    // `4x`, `2×`: the sign written onto the digits, which no word boundary allows for.
    const glued = `(?<number2>${DIGITS_SOURCE})\\s*[x×](?![\\p{L}\\p{N}_])`;
    const led = `(?:(?<lead2>${leads})\\s*|(?<![\\p{L}\\p{N}_])[x×])(?<number3>${numberSource()})(?![\\p{L}\\p{N}_])`;
    return `(?:${counted}|${glued}|${led}|(?<word>${anyWord(words.multiples.keys())}))`;
  });
}

export const multipleWord = {
  pattern(field: FieldSpec): RegExp | null {
    return scaleField([field]) === undefined ? null : multiplePattern();
  },
  convert(groups: Groups, field: FieldSpec): Converted | undefined {
    const times = groups.word !== undefined ? quantityWords().multiples.get(foldWord(groups.word)) : parseWrittenNumber(groups.number ?? groups.number2 ?? groups.number3 ?? '');
    if (times === undefined || times <= 1) return undefined;
    if (hasOptions(field)) {
      const option = field.enum.find((candidate) => Number(candidate) === times);
      return option === undefined ? undefined : { value: option, fit: 'ok' };
    }
    return numberForField(times, field);
  },
};

/** True when a word asking for a bigger picture stands in the same clause as the multiple (`upscale it 4 times`). */
export function enlargeVerbInClause(text: string, start: number, end: number): boolean {
  const breaks = /[,;|\n()。、，；،؛]|[.!?](?=\s|$)/gu;
  let from = 0;
  let to = text.length;
  for (const match of text.matchAll(breaks)) {
    if (match.index < start) from = match.index + 1;
    else if (match.index >= end) {
      to = match.index;
      break;
    }
  }
  const verbs = cached('enlarge', () => anyWord(quantityWords().enlargeVerbs));
  verbs.lastIndex = 0;
  return [...text.slice(from, to).matchAll(verbs)].some((match) => from + match.index + match[0].length <= start || from + match.index >= end);
}
