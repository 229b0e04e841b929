/**
 * The deterministic conversions from the user's words to a field's value, each by name. One definition serves
 * two readers: the builder finds the phrase in the request (`pattern` over the whole text) and the validator
 * re-derives a cited value from the cited words (`deriveValue`): the same words and the same field always give
 * the same value, so a value that is not the user's literal text (`1 minute` → 60, `in Spanish` → `es`,
 * `vertical` → `9:16`) is still checkable against what the user wrote.
 */
import type { FieldSpec } from '../generated/contracts.ts';
import { numberForField, type Converted } from './field-values.ts';
import { hasOptions, nameWords } from './fields.ts';
import { dependentOption, type DependencyContext } from './dependent.ts';
import { maskSidePattern, maskSideValue } from './mask-sides.ts';
import { decimalComma, multipleWord, unitNumber } from './quantities.ts';
import { DIGITS, foldDigits, hasOtherDigits, isDigitsOnly, numberSource, parseWrittenNumber } from './numbers.ts';
import { presetNearRatio, presetOfRatio, presetShapes } from './size-presets.ts';
import { conceptOption, mayNameOption, optionKey, optionNamed, optionWordsSource, stringOptions, switchOption } from './option-words.ts';
import { actionOption, actionSource, maySayAction, spreadOption, spreadOptionSource } from './field-actions.ts';
import { allMatches, anyWord, CLITIC_PREFIX, escapeRegExp, isUnspaced } from './patterns.ts';
import { foldWord, readingWords } from './words.ts';

export { numberForField, type Converted } from './field-values.ts';
export type { DependencyContext } from './dependent.ts';

export const CONVERSION_NAMES = [
  'duration',
  'frames',
  'count',
  'aspect_word',
  'resolution_word',
  'format_word',
  'language_name',
  'negated_switch',
  'enum_synonym',
  'unit_number',
  'decimal_comma',
  'multiple_word',
  'native_digits',
  'dependent_option',
  'mask_side',
  'size_preset',
] as const;
export type ConversionName = (typeof CONVERSION_NAMES)[number];

type Groups = Record<string, string | undefined>;

interface Conversion {
  /** How the phrase is written for this field (global, with named groups), or null when the field cannot take it. */
  pattern(field: FieldSpec): RegExp | null;
  convert(groups: Groups, field: FieldSpec): Converted | undefined;
  /** A cheap test that the text may hold such a phrase for the field: false spares building the pattern. */
  mayMatch?(text: string, field: FieldSpec): boolean;
}

export function isConversionName(name: unknown): name is ConversionName {
  return typeof name === 'string' && (CONVERSION_NAMES as readonly string[]).includes(name);
}

/**
 * The value `conversion` gives the first phrase of its kind in `words` for `field`, or undefined. A value one
 * choice implies for another field (`dependent_option`) is read against the rest of the payload: `context`.
 */
export function deriveValue(conversion: ConversionName, words: string, field: FieldSpec, context?: DependencyContext): Converted | undefined {
  if (conversion === 'dependent_option') {
    const value = context === undefined ? undefined : dependentOption(words, field, context, wordsGive);
    return value === undefined ? undefined : { value, fit: 'ok' };
  }
  const definition = CONVERSIONS[conversion];
  if (definition.mayMatch && !definition.mayMatch(words, field)) return undefined;
  const pattern = definition.pattern(field);
  if (!pattern) return undefined;
  for (const match of words.matchAll(pattern)) {
    const converted = definition.convert(match.groups ?? {}, field);
    if (converted !== undefined) return converted;
  }
  return undefined;
}

/** Every place `conversion` reads in `text` for `field`: span, groups and value. */
export function* conversionMatches(
  conversion: ConversionName,
  text: string,
  field: FieldSpec,
): Generator<{ start: number; end: number; groups: Groups; converted: Converted }> {
  const definition = CONVERSIONS[conversion];
  if (definition.mayMatch && !definition.mayMatch(text, field)) return;
  const pattern = definition.pattern(field);
  if (!pattern) return;
  for (const match of allMatches(pattern, text)) {
    const groups = match.groups ?? {};
    const converted = definition.convert(groups, field);
    if (converted !== undefined) yield { start: match.index, end: match.index + match[0].length, groups, converted };
  }
}

/** The first phrase of `text` that `conversion` turns into exactly `value` for `field`, as written; undefined when none. */
export function phraseGiving(conversion: ConversionName, text: string, field: FieldSpec, value: unknown): string | undefined {
  for (const found of conversionMatches(conversion, text, field)) {
    if (found.converted.fit === 'ok' && found.converted.value === value) return text.slice(found.start, found.end);
  }
  return undefined;
}

const patternCache = new Map<string, RegExp>();

/** Field-independent patterns are built once; per-field ones are keyed by what they depend on. */
function cached(key: string, build: () => string): RegExp {
  let pattern = patternCache.get(key);
  if (!pattern) {
    if (patternCache.size > 2000) patternCache.clear();
    pattern = new RegExp(build(), 'giu');
    patternCache.set(key, pattern);
  }
  return pattern;
}

// ---- numbers with a unit --------------------------------------------------------------------------------------

/**
 * Words after a time phrase that make it a moment, not a length, in each reading language: `2 minutes later`,
 * `30 seconds before the launch`, `30 секунд до старта`, `30 שניות לפני`, `30秒前`. Words that also say "for" or
 * "up to" (`para`, `まで`) are left out: after a length they usually mean it.
 */
const MOMENT_WORDS: readonly string[] = [
  'ago', 'later', 'before', 'after', 'into', 'until', 'till', 'from now', 'long ago',
  'antes', 'después', 'despues', 'hasta', 'más tarde',
  'avant', 'après', 'apres', "jusqu'à", "jusqu'au", 'plus tard',
  'vor', 'nach', 'bis', 'später', 'spater',
  'depois', 'até', 'mais tarde',
  'до', 'после', 'спустя', 'назад',
  'לפני', 'אחרי', 'עד',
  'قبل', 'بعد', 'حتى',
];
/** Written right onto the unit (`30秒前`, `5分後`). */
const MOMENT_UNSPACED: readonly string[] = ['前', '後'];
const MOMENT_AFTER = `(?!\\s+${anyWord(MOMENT_WORDS)}|\\s*(?:${MOMENT_UNSPACED.join('|')}))`;

/**
 * `10 seconds`, `six seconds`, `a minute and a half`, `1分半`, or a length said in one word (`полминуты`, `دقيقتان`).
 */
export function timeUnitPattern(): RegExp {
  const words = readingWords();
  return cached('time', () => {
    const counted = `(?<number>${numberSource()})\\s*-?\\s*(?<unit>${anyWord([...words.lists.seconds, ...words.lists.minutes])})(?:\\s*(?<half>${anyWord(words.lists.halfTrails)}))?`;
    return `(?:${counted}|(?<length>${anyWord(words.lengths.keys())}))${MOMENT_AFTER}`;
  });
}

function unitAccepted(groups: Groups): boolean {
  if (groups.length !== undefined) return true;
  const unit = groups.unit ?? '';
  // A one-letter unit (`10s`, `5с`) only right after digits: `six s` or `a s` is not a duration.
  return unit.length > 1 || isUnspaced(unit) || isDigitsOnly(groups.number ?? '');
}

function secondsOf(groups: Groups): number | undefined {
  if (groups.length !== undefined) return readingWords().lengths.get(foldWord(groups.length));
  if (!unitAccepted(groups)) return undefined;
  const number = parseWrittenNumber(groups.number ?? '');
  if (number === undefined) return undefined;
  const unit = readingWords().lists.minutes.includes(foldWord(groups.unit ?? '')) ? 60 : 1;
  return (number + (groups.half === undefined ? 0 : 0.5)) * unit;
}

const duration: Conversion = {
  pattern: () => timeUnitPattern(),
  convert(groups, field) {
    const seconds = secondsOf(groups);
    return seconds === undefined ? undefined : numberForField(seconds, field);
  },
};

const frames: Conversion = {
  pattern: () => cached('frames', () => `(?<number>${numberSource()})\\s*-?\\s*(?<unit>${anyWord(readingWords().lists.frames)})`),
  convert(groups, field) {
    const number = parseWrittenNumber(groups.number ?? '');
    return number === undefined || !Number.isInteger(number) ? undefined : numberForField(number, field);
  },
};

/**
 * `six images`, `cuatro imágenes`, `4枚`, `three different takes`, `a dozen quick sketches`: how many outputs. One
 * word of a spaced script may stand between the count and what it counts. A count and what it counts may be one
 * word (`نسختان`, `صورتين`: the Arabic dual, two).
 */
export function countPattern(): RegExp {
  const gap = '(?:(?<gap>(?:(?![\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}])\\p{L})+)\\s+)?';
  const words = readingWords();
  // `ארבעת הגרסאות`: the article written onto what is counted.
  const article = '(?:\u05D4|\u0627\u0644)?';
  return cached('count', () => `(?:(?<number>${numberSource()})\\s*${gap}${article}(?<unit>${anyWord(words.lists.images)})|(?<counted>${anyWord(words.counted.keys())}))`);
}

const count: Conversion = {
  pattern: () => countPattern(),
  convert(groups, field) {
    const number = groups.counted !== undefined ? readingWords().counted.get(foldWord(groups.counted)) : parseWrittenNumber(groups.number ?? '');
    return number === undefined || !Number.isInteger(number) || number < 1 ? undefined : numberForField(number, field);
  },
};

// ---- aspect ----------------------------------------------------------------------------------------------------

export type Orientation = 'portrait' | 'landscape' | 'widescreen' | 'square' | 'ultrawide';
const ORIENTATIONS: readonly Orientation[] = ['portrait', 'landscape', 'widescreen', 'square', 'ultrawide'];
/** The ratio each word stands for when the field takes any ratio (width over height). */
const ORIENTATION_RATIO: Record<Orientation, [number, number]> = { portrait: [9, 16], landscape: [16, 9], widescreen: [16, 9], square: [1, 1], ultrawide: [21, 9] };

export function orientationOf(word: string): Orientation | undefined {
  const folded = foldWord(word);
  return ORIENTATIONS.find((orientation) => readingWords().lists[orientation].includes(folded));
}

export function aspectPattern(): RegExp {
  const words = readingWords().lists;
  return cached('aspect', () => `(?<word>${anyWord(ORIENTATIONS.flatMap((orientation) => words[orientation]))})(?:\\s*(?<noun>${anyWord([...words.orientationNouns, ...words.mediaNouns])}))?`);
}

const aspect: Conversion = {
  pattern: () => aspectPattern(),
  convert(groups, field) {
    const orientation = orientationOf(groups.word ?? '');
    return orientation === undefined ? undefined : ratioForOrientation(orientation, field);
  },
};

/** The option that is the word itself, else the ratio it stands for, else the closest ratio of the same orientation. */
export function ratioForOrientation(orientation: Orientation, field: FieldSpec): Converted | undefined {
  const [w, h] = ORIENTATION_RATIO[orientation];
  if (!hasOptions(field)) return field.type === 'string' ? { value: `${w}:${h}`, fit: 'ok' } : undefined;
  const named = field.enum.find((option) => typeof option === 'string' && foldWord(option) === orientation);
  if (named !== undefined) return { value: named, fit: 'ok' };
  // `landscape` where the options say `widescreen` (and back): the same shape.
  const twin = orientation === 'landscape' ? 'widescreen' : orientation === 'widescreen' ? 'landscape' : undefined;
  const named2 = twin && field.enum.find((option) => typeof option === 'string' && foldWord(option) === twin);
  if (named2) return { value: named2, fit: 'ok' };
  const target = Math.log(w / h);
  let best: { option: unknown; distance: number } | undefined;
  for (const option of field.enum) {
    const ratio = typeof option === 'string' ? optionRatio(option) : undefined;
    if (ratio === undefined || Math.sign(Math.round(Math.log(ratio) * 100)) !== Math.sign(Math.round(target * 100))) continue;
    const distance = Math.abs(Math.log(ratio) - target);
    if (!best || distance < best.distance - 1e-9) best = { option, distance };
  }
  return best ? { value: best.option, fit: 'ok' } : undefined;
}

/** Width over height of an option written `16:9`, `1024x768`, `704*1408` or `Widescreen TV (16:9)`. */
function optionRatio(option: string): number | undefined {
  const match = /(\d+(?:\.\d+)?)\s*[:x×*]\s*(\d+(?:\.\d+)?)/.exec(option);
  if (!match) return undefined;
  const w = Number(match[1]);
  const h = Number(match[2]);
  return w > 0 && h > 0 ? w / h : undefined;
}

// ---- size presets ----------------------------------------------------------------------------------------------

/**
 * `16:9`, `widescreen`, `vertical`, `square` for a field that takes a size object or a preset name (fal's
 * `image_size`): the preset of that shape (size-presets.ts). A ratio needs a preset of exactly its shape; a word
 * takes the closest of its orientation, as it does among a ratio field's options.
 */
export function sizePresetPattern(): RegExp {
  return cached('size-preset', () => `(?<![\\p{N}.,:\uFF1A])(?<pw>${DIGITS})\\s*[:\uFF1A]\\s*(?<ph>${DIGITS})(?![\\p{N}])|${aspectPattern().source}`);
}

const sizePreset: Conversion = {
  pattern: (field) => (presetShapes(field).length === 0 ? null : sizePresetPattern()),
  mayMatch: (_text, field) => (field.presets?.length ?? 0) > 0,
  convert(groups, field) {
    if (groups.pw !== undefined && groups.ph !== undefined) {
      const preset = presetOfRatio(field, Number(foldDigits(groups.pw)), Number(foldDigits(groups.ph)));
      return preset === undefined ? undefined : { value: preset, fit: 'ok' };
    }
    const orientation = orientationOf(groups.word ?? '');
    if (orientation === undefined) return undefined;
    const [w, h] = ORIENTATION_RATIO[orientation];
    const preset = presetNearRatio(field, w, h);
    return preset === undefined ? undefined : { value: preset, fit: 'ok' };
  },
};

// ---- resolution ------------------------------------------------------------------------------------------------

/** Resolution words → width and height (landscape), with the other names the same size goes by. */
const RESOLUTIONS: readonly { names: readonly string[]; size: [number, number] }[] = [
  { names: ['8k', '4320p'], size: [7680, 4320] },
  { names: ['4k', 'uhd', 'ultra hd', '2160p'], size: [3840, 2160] },
  { names: ['2k', 'qhd', '1440p'], size: [2560, 1440] },
  { names: ['1080p', 'fhd', 'full hd', 'fullhd'], size: [1920, 1080] },
  { names: ['720p', 'hd'], size: [1280, 720] },
  { names: ['576p'], size: [1024, 576] },
  { names: ['480p', 'sd'], size: [854, 480] },
  { names: ['360p'], size: [640, 360] },
];

export function resolutionPattern(): RegExp {
  // `hd` and `sd` alone are too common in prose; they count only inside the longer names.
  const names = RESOLUTIONS.flatMap((entry) => entry.names).filter((name) => name !== 'hd' && name !== 'sd');
  // A Japanese neighbour is no part of the word (`この動画を4kにアップスケール`).
  return cached('resolution', () => `(?<!${SPACED_WORD_CHAR})(?<res>${names.map((name) => name.split(' ').map(escapeRegExp).join('[\\s-]?')).join('|')})(?!${SPACED_WORD_CHAR})`);
}

function resolutionEntry(written: string): (typeof RESOLUTIONS)[number] | undefined {
  const key = foldWord(written).replace(/[\s-]+/g, ' ');
  return RESOLUTIONS.find((entry) => entry.names.includes(key) || entry.names.includes(key.replace(/ /g, '')));
}

const resolution: Conversion = {
  pattern: () => resolutionPattern(),
  convert(groups, field) {
    const entry = resolutionEntry(groups.res ?? '');
    return entry === undefined ? undefined : resolutionForField(entry, field);
  },
};

function resolutionForField(entry: (typeof RESOLUTIONS)[number], field: FieldSpec): Converted | undefined {
  const [w, h] = entry.size;
  if (field.role === 'width') return numberForField(w, field);
  if (field.role === 'height') return numberForField(h, field);
  if (!hasOptions(field)) return field.type === 'string' ? { value: entry.names[0], fit: 'ok' } : numberForField(h, field);
  const key = (option: unknown) => foldWord(String(option)).replace(/[\s-]+/g, '');
  const named = field.enum.find((option) => entry.names.some((name) => name.replace(/ /g, '') === key(option)));
  if (named !== undefined) return { value: named, fit: 'ok' };
  const sized = field.enum.find((option) => typeof option === 'string' && new RegExp(`^${w}\\s*[x×*]\\s*${h}(?![0-9])`).test(option.trim()));
  if (sized !== undefined) return { value: sized, fit: 'ok' };
  const byHeight = field.enum.find((option) => Number(option) === h);
  return byHeight === undefined ? undefined : { value: byHeight, fit: 'ok' };
}

// ---- formats ---------------------------------------------------------------------------------------------------

/** Options too common in prose to read as a file format (`auto`, `text`). */
const COMMON_OPTION_WORDS = new Set(['auto', 'none', 'text', 'same', 'best', 'high', 'low', 'fast', 'default', 'plain', 'raw', 'original', 'url', 'base64']);
/** File formats the reader knows without a schema: enough to notice a format nobody could place. */
export const KNOWN_FORMATS = ['png', 'jpg', 'jpeg', 'webp', 'gif', 'avif', 'heic', 'tiff', 'bmp', 'svg', 'mp4', 'webm', 'mov', 'mkv', 'mp3', 'wav', 'flac', 'ogg', 'opus', 'aac', 'm4a', 'srt', 'vtt', 'json', 'csv', 'tsv', 'pdf', 'glb', 'obj', 'ply'];

/** Names a format also goes by: SubRip is srt, WebVTT is vtt. */
const FORMAT_ALIASES: Readonly<Record<string, string>> = { jpeg: 'jpg', subrip: 'srt', webvtt: 'vtt' };

/** True when the field chooses a file format: its role says so, or its options are file formats. */
export function isFormatField(field: FieldSpec): boolean {
  return formatOptions(field).length > 0;
}

function formatOptions(field: FieldSpec): string[] {
  if (!hasOptions(field)) return [];
  const members = field.enum.filter((option): option is string => typeof option === 'string' && /^[a-z0-9]{2,5}$/i.test(option) && !COMMON_OPTION_WORDS.has(option.toLowerCase()));
  // A field whatever its name whose options are file formats (`transcription`: plain text, srt, vtt) chooses the output's format.
  const formats = members.filter((option) => KNOWN_FORMATS.includes(option.toLowerCase()));
  return field.role === 'output_format' || formats.length >= 2 ? members : [];
}

/**
 * A switch named for a file format (`mp4`, described "Returns .mp4 if true or .gif if false"): the format asked
 * for turns it on, and a format its description names for the other way turns it off.
 */
export function formatSwitch(field: FieldSpec): { on: string; off: string[] } | undefined {
  if (field.type !== 'boolean' || hasOptions(field)) return undefined;
  const words = nameWords(field.name);
  const on = words.length === 1 ? words[0] : undefined;
  if (on === undefined || !KNOWN_FORMATS.includes(on)) return undefined;
  const described = (field.description ?? '').toLowerCase().match(/[a-z0-9]+/g) ?? [];
  const off = [...new Set(described.filter((word) => word !== on && KNOWN_FORMATS.includes(word)))];
  return { on, off };
}

/** The formats a written name stands for: itself, and the format it is another name of (`jpeg` → jpg, `subrip` → srt). */
function formatNames(written: string): string[] {
  const lower = written.toLowerCase();
  if (/^jpe?g$/.test(lower)) return ['jpg', 'jpeg'];
  return FORMAT_ALIASES[lower] === undefined ? [lower] : [lower, FORMAT_ALIASES[lower]];
}

/** A letter, digit or underscore of a script written with spaces: a Japanese neighbour (`png形式`) is no part of the word. */
const SPACED_WORD_CHAR = '(?:(?![\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}])[\\p{L}\\p{N}_])';

/** Formats of subtitles: `subtitles` alone asks for one of them. */
const SUBTITLE_FORMATS: ReadonlySet<string> = new Set(['srt', 'vtt', 'ass', 'ssa', 'sbv']);

/**
 * `as png`, `en formato PNG`, `.png`, `png file`, `subtitles srt`, `png` (the last only where it stands alone; see
 * the finder). With `subtitlesAlone`, the word for subtitles by itself too (`give me subtitles`).
 */
export function formatPattern(members: readonly string[], subtitlesAlone = false): RegExp {
  const words = readingWords().lists;
  const aliases = (member: string) => Object.entries(FORMAT_ALIASES).filter(([, target]) => target === member.toLowerCase()).map(([alias]) => alias);
  const all = [...members, ...members.flatMap((member) => (/^jpe?g$/i.test(member) ? ['jpg', 'jpeg'] : aliases(member)))];
  return cached(`format:${all.join('|')}:${subtitlesAlone}`, () => {
    const names = [...new Set(all.map((member) => member.toLowerCase()))].map(escapeRegExp).join('|');
    const leads = anyWord([...words.formatLeads, ...words.subtitles]);
    const trails = anyWord([...words.formatTrails, ...words.subtitles]);
    const written = `(?:(?<lead>${leads})\\s*)?(?<dot>\\.)?(?<!${SPACED_WORD_CHAR})(?<format>${names})(?!${SPACED_WORD_CHAR}|\\.[\\p{L}\\p{N}])(?:\\s*(?<trail>${trails}))?`;
    // Tried after the written format, so `subtitles srt` reads the format and `subtitles` alone the request; a
    // format named in the same clause (`字幕はvtt形式で`, `srt形式の字幕`) is the one asked for.
    const clause = '[^,.;!?\\n\u3001\u3002]*';
    // `no subtitles`, `sin subtítulos`: a negation before the word turns subtitles off (see subtitlesFormat).
    const negated = `(?:(?<negation>${anyWord(words.negation)})\\s*(?:(?:the|any|el|la|los|las|le|les|des|die|den|o|os|as)\\s+)?)?`;
    const alone = `(?<!(?:${names})${clause})${negated}(?<subtitles>${anyWord(words.subtitles)})(?!${clause}(?:${names}))`;
    return subtitlesAlone ? `(?:${written}|${alone})` : written;
  });
}

const format: Conversion = {
  pattern(field) {
    const formats = formatSwitch(field);
    if (formats) return formatPattern([formats.on, ...formats.off]);
    const members = formatOptions(field);
    return members.length === 0 ? null : formatPattern(members, members.some((member) => SUBTITLE_FORMATS.has(member.toLowerCase())));
  },
  convert(groups, field) {
    if (groups.subtitles !== undefined) return groups.negation === undefined ? subtitlesFormat(field) : withoutSubtitles(field);
    const written = (groups.format ?? '').toLowerCase();
    const wanted = formatNames(written);
    const formats = formatSwitch(field);
    if (formats) {
      if (wanted.includes(formats.on)) return { value: true, fit: 'ok' };
      return formats.off.some((off) => wanted.includes(off)) ? { value: false, fit: 'ok' } : undefined;
    }
    const member = formatOptions(field).find((option) => option.toLowerCase() === written) ?? formatOptions(field).find((option) => wanted.includes(option.toLowerCase()));
    return member === undefined ? undefined : { value: member, fit: 'ok' };
  },
};

/**
 * Subtitles asked for without a format: the field's default when it is one (`format`, srt or vtt, default vtt),
 * else its first subtitle format (`transcription`: plain text, srt, vtt → srt).
 */
function subtitlesFormat(field: FieldSpec): Converted | undefined {
  const members = formatOptions(field);
  const fallback = members.find((member) => SUBTITLE_FORMATS.has(member.toLowerCase()));
  const chosen = typeof field.default === 'string' && members.includes(field.default) && SUBTITLE_FORMATS.has(field.default.toLowerCase()) ? field.default : fallback;
  return chosen === undefined ? undefined : { value: chosen, fit: 'ok' };
}

/**
 * Subtitles asked away (`transcribe it, no subtitles`): the field's default when it is no subtitle format, else its
 * first option that is none (`plain text`); nothing when every option is one, so the phrase is reported instead.
 */
function withoutSubtitles(field: FieldSpec): Converted | undefined {
  const others = (field.enum ?? []).filter((option): option is string => typeof option === 'string' && !SUBTITLE_FORMATS.has(option.toLowerCase()));
  const chosen = typeof field.default === 'string' && others.includes(field.default) ? field.default : others[0];
  return chosen === undefined ? undefined : { value: chosen, fit: 'ok' };
}

// ---- languages -------------------------------------------------------------------------------------------------

export function languagePattern(): RegExp {
  return cached('language', () => {
    const words = readingWords();
    const names = anyWord(words.languages.keys());
    const trails = words.lists.languageTrails;
    // A lead of a script without spaces (`言語は日本語`) needs none before the name.
    const led = `${anyWord(words.lists.languageLeads)}(?:\\s+|(?<=[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}:\\uFF1A]))(?:the\\s+)?(?<name>${names})(?:\\s+${anyWord(trails)})?`;
    const trailed = `(?<tname>${names})\\s*${anyWord(trails)}`;
    // `language en`, `idioma: es`, `язык de`: a code right after the word for language, in any reading language,
    // ending its clause (`language en masse` is French for a crowd of words).
    const coded = `${anyWord(languageLabels())}\\s*[:=\\uFF1A]?\\s*(?<code>${anyWord(languageCodes())})(?=\\s*(?:$|[,;|\\n()\u3001\u3002\uFF0C\uFF1B\u060C\u061B]|[.!?](?:\\s|$)))`;
    return `(?:${coded}|${led}|(?<form>${anyWord(words.languageForms.keys())})|${trailed})`;
  });
}

/** The word for language in every reading language (`language`, `idioma`, `язык`, `言語`). */
function languageLabels(): string[] {
  return ['language', 'lang', ...(readingWords().fieldNames.get('language') ?? [])];
}

/** Every two-letter code the language lists name. */
function languageCodes(): string[] {
  return [...new Set(readingWords().languages.values())].filter((code) => /^[a-z]{2}$/.test(code));
}

/** The ISO code a language phrase names. */
export function languageCode(groups: Groups): string | undefined {
  const words = readingWords();
  if (groups.form) return words.languageForms.get(foldWord(groups.form));
  if (groups.code) return groups.code.toLowerCase();
  return words.languages.get(foldWord(groups.name ?? groups.tname ?? ''));
}

const language: Conversion = {
  pattern: () => languagePattern(),
  convert(groups, field) {
    const code = languageCode(groups);
    if (code === undefined) return undefined;
    // A code the user wrote goes into a free field as written.
    if (groups.code !== undefined && field.type === 'string' && !hasOptions(field)) return { value: code, fit: 'ok' };
    return languageForField(code, field);
  },
};

function languageForField(code: string, field: FieldSpec): Converted | undefined {
  const english = readingWords().byLanguage.en.languages[code]?.[0] ?? code;
  if (hasOptions(field)) {
    const member =
      field.enum.find((option) => typeof option === 'string' && option.toLowerCase() === code) ??
      field.enum.find((option) => typeof option === 'string' && option.toLowerCase() === english) ??
      field.enum.find((option) => typeof option === 'string' && option.toLowerCase().split(/[-_]/)[0] === code && option.length <= 5);
    return member === undefined ? undefined : { value: member, fit: 'ok' };
  }
  if (field.type !== 'string') return undefined;
  // A free field says how it wants the language: a code like its default or its description, else the name.
  const wantsCode = (typeof field.default === 'string' && /^[a-z]{2,3}(?:[-_][a-z]{2})?$/i.test(field.default)) || /\b(?:code|iso|639)\b/i.test(`${field.description ?? ''} ${field.title ?? ''}`);
  return { value: wantsCode ? code : english.charAt(0).toUpperCase() + english.slice(1), fit: 'ok' };
}

// ---- switches --------------------------------------------------------------------------------------------------

/** What a switch field is about, once its verb is off (`apply_watermark` → watermark) → the lists' feature key. */
const FEATURE_NAMES: Record<string, string> = {
  audio: 'audio', sound: 'audio', 'sound effects': 'audio', watermark: 'watermark', subtitles: 'subtitles', subtitle: 'subtitles',
  captions: 'subtitles', music: 'music', 'background music': 'music', background: 'background', 'safety checker': 'safety',
  'safety filter': 'safety', 'nsfw filter': 'safety', 'nsfw checker': 'safety',
  'face enhance': 'faces', 'face enhancement': 'faces', 'enhance face': 'faces', 'enhance faces': 'faces', 'face restore': 'faces',
  'face restoration': 'faces', 'restore face': 'faces', 'restore faces': 'faces', 'face correction': 'faces', 'fix face': 'faces', 'fix faces': 'faces',
  loop: 'loop', looping: 'loop', 'seamless loop': 'loop',
  // Telling the speakers of a recording apart.
  diarization: 'diarization', diarisation: 'diarization', diarize: 'diarization', diarise: 'diarization', 'diarize audio': 'diarization',
  'diarise audio': 'diarization', 'speaker diarization': 'diarization', 'speaker labels': 'diarization',
  // Letting the model rewrite the prompt before it makes anything.
  'magic prompt': 'prompt enhancement', 'enhance prompt': 'prompt enhancement', 'prompt enhancement': 'prompt enhancement',
  'prompt upsampling': 'prompt enhancement', 'prompt optimizer': 'prompt enhancement', 'prompt extend': 'prompt enhancement',
  'prompt expansion': 'prompt enhancement', 'expand prompt': 'prompt enhancement', 'optimize prompt': 'prompt enhancement',
};
/** The verbs a switch field's name may start with; anything else (`diarise_audio`) is another switch. */
const SWITCH_HEADS = new Set(['generate', 'enable', 'disable', 'keep', 'add', 'include', 'with', 'use', 'remove', 'no', 'apply', 'output', 'return', 'show', 'hide', 'mute', 'burn', 'embed', 'skip', 'without', 'drop', 'strip']);
/** A field named with a negative verb is switched on by "without": `remove_background`, `disable_safety_checker`. */
const NEGATIVE_HEADS = new Set(['disable', 'no', 'remove', 'skip', 'without', 'hide', 'mute', 'drop', 'strip']);

function featureKeyOf(field: FieldSpec): string | undefined {
  if (field.type !== 'boolean' || hasOptions(field)) return undefined;
  return featureOfName(field.name);
}

/** The feature a switch's name is about, its verb off (`apply_watermark` → watermark), if the lists have it. */
function featureOfName(name: string): string | undefined {
  const words = nameWords(name);
  const base = SWITCH_HEADS.has(words[0] ?? '') ? words.slice(1) : words;
  return FEATURE_NAMES[base.join(' ')];
}

/** The words of every language for a feature. */
function wordsOfFeature(key: string): string[] {
  return [...readingWords().features].filter(([, feature]) => feature === key).map(([word]) => word);
}

function featureWordsOf(field: FieldSpec): string[] {
  const key = featureKeyOf(field);
  return key === undefined ? [] : wordsOfFeature(key);
}

/** Phrases that ask for the field's feature on by themselves (`fix the faces`, `mejora las caras`, `ループで`). */
function featureRequestsOf(field: FieldSpec): string[] {
  const key = featureKeyOf(field);
  return key === undefined ? [] : [...readingWords().featureRequests].filter(([, feature]) => feature === key).map(([phrase]) => phrase);
}

/**
 * `don't`, `do not` are negations that need a verb: the feature after them is asked off only as a verb with its
 * object or ending the clause (`don't rewrite my prompt`, `don't watermark it`), not as a linking verb before an
 * adjective (`don't sound robotic` says nothing about audio).
 */
const AUXILIARY = /(?:n't|(?<![\p{L}])not)$/u;
const OBJECT_OR_END = `(?=\\s*(?:$|[,;.!?:()\\n]|(?:it|them|this|that|the|a|an|my|our|any|at all|please|and|but)(?![\\p{L}])))`;

/** The negations and affirmations of the lists, those that need a verb apart. */
function switchVerbs(): { verbs: string[]; auxiliaries: string[] } {
  const words = readingWords().lists;
  const all = [...words.negation, ...words.affirmation];
  return { verbs: all.filter((word) => !AUXILIARY.test(word)), auxiliaries: all.filter((word) => AUXILIARY.test(word)) };
}

export function switchPattern(featureWords: readonly string[], requests: readonly string[] = []): RegExp {
  const words = readingWords().lists;
  return cached(`switch:${featureWords.join('|')}:${requests.join('|')}`, () => {
    const feature = anyWord(featureWords);
    const article = '(?:(?:the|any|el|la|los|las|le|les|das|die|den|der|o|os|as)\\s+)?';
    const { verbs, auxiliaries } = switchVerbs();
    const before = `(?<verb>${anyWord(verbs)})\\s*${article}(?<feature>${feature})|(?<aux>${anyWord(auxiliaries)})\\s*${article}(?<featureAux>${feature})${OBJECT_OR_END}`;
    const unspacedVerbs = [...words.negation, ...words.affirmation, ...words.off, ...words.on].filter(isUnspaced);
    const after = `(?<feature2>${feature})\\s*(?:[:=]\\s*)?(?<state>${anyWord([...words.off, ...words.on].filter((word) => !isUnspaced(word)))})(?![\\p{L}\\p{N}_])`;
    const afterUnspaced = `(?<feature3>${feature})\\s*(?:を|の|は)?\\s*(?<state2>${anyWord(unspacedVerbs)})`;
    // A request names the feature as a wish ("fix the faces"); followed by ":" or "=" it is a field name with a value
    // of its own ("face enhance: maybe"), which the explicit readings judge.
    const asked = requests.length > 0 ? `|(?<request>${anyWord(requests)})(?!\\s*[:=])` : '';
    return `(?:${before}|${after}|${afterUnspaced}${asked})`;
  });
}

/** Whether the phrase switches its feature on. */
function switchedOn(groups: Groups): boolean | undefined {
  const lists = readingWords().lists;
  if (groups.request !== undefined) return true;
  const word = foldWord(groups.verb ?? groups.aux ?? groups.state ?? groups.state2 ?? '');
  if (lists.negation.includes(word) || lists.off.includes(word)) return false;
  if (lists.affirmation.includes(word) || lists.on.includes(word)) return true;
  return undefined;
}

const negatedSwitch: Conversion = {
  pattern(field) {
    const words = featureWordsOf(field);
    const requests = featureRequestsOf(field);
    const action = field.type === 'boolean' && !hasOptions(field) ? actionSource(field, anyWord(readingWords().lists.negation)) : undefined;
    if (action === undefined) return words.length === 0 ? null : switchPattern(words, requests);
    const forms = [...(words.length === 0 ? [] : [switchPattern(words, requests).source]), action];
    return cached(`switch-action:${field.name}:${field.description ?? ''}:${words.join('|')}`, () => `(?:${forms.join('|')})`);
  },
  mayMatch: (text, field) => featureWordsOf(field).length > 0 || maySayAction(field, text),
  convert(groups, field) {
    // `fix the hands` for `handfix`: the field's own action, so no negative head turns it around.
    if (groups.act !== undefined) return { value: groups.actNeg === undefined, fit: 'ok' };
    const on = switchedOn(groups);
    if (on === undefined) return undefined;
    const negative = NEGATIVE_HEADS.has(nameWords(field.name)[0] ?? '');
    return { value: on !== negative, fit: 'ok' };
  },
};

// ---- digits of other scripts -----------------------------------------------------------------------------------

/**
 * A number, a ratio or a size written in digits of another script (`٤٢`, `۱۶:۹`, `７６８x５１２`): the value is the same
 * digits in ASCII. The readers read such text with its digits folded (prompt-directives.ts); this is the
 * conversion a value read there records, so the validator re-derives it from the digits as the user wrote them.
 */
export function otherDigitsPattern(): RegExp {
  return cached('native-digits', () => `(?<![\\p{N}.,\u066B])(?<first>${DIGITS})(?:\\s*(?<sep>[:\uFF1Ax×*\uFF58])\\s*(?<second>${DIGITS}))?(?![\\p{N}])`);
}

const nativeDigits: Conversion = {
  pattern: () => otherDigitsPattern(),
  mayMatch: (text) => hasOtherDigits(text),
  convert(groups, field) {
    const written = `${groups.first ?? ''}${groups.second ?? ''}`;
    if (!hasOtherDigits(written)) return undefined;
    const first = foldDigits(groups.first ?? '');
    const second = foldDigits(groups.second ?? '');
    const sep = groups.sep === undefined ? undefined : /[:\uFF1A]/.test(groups.sep) ? ':' : 'x';
    if (sep === undefined) {
      const number = parseWrittenNumber(first);
      return number === undefined || field.type === 'boolean' ? undefined : numberForField(number, field);
    }
    if (sep === 'x' && (field.role === 'width' || field.role === 'height') && field.type !== 'string') {
      const number = parseWrittenNumber(field.role === 'width' ? first : second);
      return number === undefined ? undefined : numberForField(number, field);
    }
    return writtenShape(`${first}${sep}${second}`, field);
  },
};

/** `16:9` or `768x512` as the field takes it: the option written that way (spaces aside), or the text itself. */
function writtenShape(shape: string, field: FieldSpec): Converted | undefined {
  if (hasOptions(field)) {
    const key = (option: unknown) => String(option).toLowerCase().replace(/\s+/g, '').replace(/[×*]/g, 'x');
    const member = field.enum.find((option) => typeof option === 'string' && key(option) === shape);
    return member === undefined ? { value: shape, fit: 'not_an_option' } : { value: member, fit: 'ok' };
  }
  return field.type === 'string' ? { value: shape, fit: 'ok' } : undefined;
}

// ---- options named by their field ------------------------------------------------------------------------------

/**
 * Trailing name words that say "which one", not what: `style_type` is the style, `magic_prompt_option` the magic
 * prompt, `seed_image_id` the seed image, `model_version` the model, `normalization_strategy` the normalization.
 */
const GENERIC_TAIL = new Set(['type', 'option', 'options', 'mode', 'preset', 'selection', 'selector', 'choice', 'name', 'setting', 'kind', 'value', 'id', 'version', 'strategy', 'method']);

/** The last word of the first of a set of inputs (`voice_a`, `speaker_1`). */
const FIRST_OF_SET = new Set(['a', '1']);

/** Every way the field is named: its name and title as words, and both without a generic last word. */
export function fieldLabels(field: FieldSpec): string[] {
  const labels = new Set<string>();
  for (const source of [field.name, field.title ?? '']) {
    const words = nameWords(source);
    if (words.length === 0) continue;
    labels.add(words.join(' '));
    if (words.length > 1 && GENERIC_TAIL.has(words[words.length - 1] ?? '')) labels.add(words.slice(0, -1).join(' '));
    // `voice_a` of `voice_a`, `voice_b`, `voice_c`: the first of a lettered or numbered set is the one meant by the
    // plain name (`Tom's voice`); the others are added to it.
    if (words.length > 1 && FIRST_OF_SET.has(words[words.length - 1] ?? '')) labels.add(words.slice(0, -1).join(' '));
  }
  return [...labels].filter((label) => label.length >= 2);
}

/**
 * The field's labels and what people call them in the reading languages (the lists' fieldNames); for a field of
 * on/off options named for a feature of the lists (`magic_prompt_option`: letting the model rewrite the prompt),
 * that feature's words too (`don't rewrite my prompt`, `sin mejora del prompt`).
 */
function localLabels(field: FieldSpec): string[] {
  const names = readingWords().fieldNames;
  const labels = fieldLabels(field);
  const features = switchesOnOff(field) ? labels.map((label) => FEATURE_NAMES[label]).filter((key): key is string => key !== undefined) : [];
  return [...new Set([...labels.flatMap((label) => names.get(label) ?? []), ...features.flatMap(wordsOfFeature)])];
}

/** The article or a preposition written onto the option in Hebrew and Arabic (`בסגנון האנימה`, `بأسلوب البكسل آرت`). */
const ATTACHED = `(?:${CLITIC_PREFIX.hebrew}|${CLITIC_PREFIX.arabic})?`;

/** Separators between a field's label and its option: `style: anime`, `style is anime`, `スタイルはアニメ`, `style anime`. */
const LABEL_SEPARATOR = '\\s*[:=\uFF1A]\\s*|\\s+(?:is|to|as)\\s+|\\s+(?:of|de|von|du|da|do|di)\\s+|\\s+d[\'’]|\\s*[\u306F\u3092]\\s*|\\s+|(?<=[\\p{Script=Han}\\p{Script=Katakana}\\p{Script=Hiragana}\u30FC])(?=[\\p{Script=Han}\\p{Script=Katakana}\\p{Script=Hiragana}])';

/**
 * An option named by its field (`style: design`, `magic prompt off`, `design style`, `estilo anime`, `בסגנון
 * פיקסל ארט`, `スタイルはアニメ`), switched by a negation or an affirmation before the field's name (`sin magic
 * prompt` → Off), written beside what is made (`a realistic photo`, `реалистичное фото`), or bare (`anime`): the
 * bare form counts only alone in its clause (see find.ts). The option may be written in any reading language.
 */
function enumPattern(field: FieldSpec): RegExp | null {
  // Its key (the options, the field's labels in every language, whether it switches on and off) costs more to
  // work out than the pattern costs to use: kept per field, while the field reads as it did.
  const known = enumPatterns.get(field);
  if (known && known.name === field.name && known.title === field.title && known.type === field.type && known.options === field.enum) return known.pattern;
  const pattern = buildEnumPattern(field);
  enumPatterns.set(field, { name: field.name, title: field.title, type: field.type, options: field.enum, pattern });
  return pattern;
}

const enumPatterns = new WeakMap<FieldSpec, { name: string; title: string | undefined; type: FieldSpec['type']; options: unknown[] | undefined; pattern: RegExp | null }>();

function buildEnumPattern(field: FieldSpec): RegExp | null {
  const options = stringOptions(field);
  if (options.length === 0) return null;
  const english = fieldLabels(field);
  const local = localLabels(field);
  const switches = switchesOnOff(field);
  const action = switchLike(field) ? actionSource(field, anyWord(readingWords().lists.negation)) : undefined;
  const spread = spreadOptionSource(options);
  return cached(`enum:${field.name}:${field.title ?? ''}:${field.description ?? ''}:${options.join('|')}`, () => {
    const words = readingWords().lists;
    const option = optionWordsSource(field);
    const englishAlt = [...english].sort((a, b) => b.length - a.length).map((label) => `(?<![\\p{L}\\p{N}_])${label.split(' ').map(escapeRegExp).join('[\\s_-]+')}(?![\\p{L}\\p{N}_])`);
    const labelAlt = `(?:${[...englishAlt, ...(local.length > 0 ? [anyWord(local)] : [])].join('|')})`;
    const media = anyWord(words.mediaNouns);
    const article = '(?:(?:the|el|la|le|les|der|die|das|den|o|a)\\s+)?';
    const named = english.length + local.length > 0;
    const { verbs, auxiliaries } = switchVerbs();
    const select = anyWord(words.selectLeads);
    const forms = [
      ...(named ? [`(?<label>${labelAlt})(?<sep>${LABEL_SEPARATOR})${ATTACHED}(?<option>${option})`, `(?<option2>${option})(?:\\s*|\\s*-\\s*|['’]s\\s+)(?<label2>${labelAlt})`] : []),
      ...(named && switches ? [`(?<verb>${anyWord(verbs)})\\s*${article}(?<label3>${labelAlt})|(?<aux>${anyWord(auxiliaries)})\\s*${article}(?<label4>${labelAlt})${OBJECT_OR_END}`] : []),
      // `only the vocals`, `sepárame solo la batería`, `ボーカルだけ`: picked out of a set, the option is chosen.
      `(?<select>${select})(?:\\s+${select})?\\s*${SELECT_ARTICLE}${ATTACHED}(?<option6>${option})`,
      `(?<option7>${option})\\s*(?<selectTrail>${anyWord(words.selectTrails)})`,
      `(?<option4>${option})\\s+(?<media>${media})`,
      `(?<media2>${media})\\s+(?<option5>${option})`,
      // Weak forms, counted only in a clause of their own (find.ts): `fix the hands`, `crop it to 16:9`. Before a
      // bare option word, which may be a word of theirs (`crop` of `crop_to_16_9`).
      ...(action === undefined ? [] : [action]),
      ...(spread === undefined ? [] : [`(?<spread>${spread})`]),
      `(?<option3>${option})`,
    ];
    return `(?:${forms.join('|')})`;
  });
}

/**
 * The article, a possessive (`keep my image's size`, `conserva el tamaño de mi imagen`) or the Hebrew object marker
 * between a selecting word and its option: `only the vocals`, `רק את התופים`.
 */
const SELECT_ARTICLE = '(?:(?:the|my|our|el|la|los|las|mi|mis|le|les|mon|ma|mes|der|die|das|den|mein|meine|meinen|o|a|os|as|meu|minha|\u05D0\u05EA)\\s+)?';

/** Options for on and off (`On`, `Off`): a negation before the field's name chooses one. */
function switchesOnOff(field: FieldSpec): boolean {
  return conceptOption(field, 'on') !== undefined && conceptOption(field, 'off') !== undefined;
}

/** A field with an option for off (`disabled`, `none`): an action said in words switches it. */
function switchLike(field: FieldSpec): boolean {
  return switchOption(field, 'off') !== undefined;
}

/** False when no label of the field is in the text. */
function mayNameField(field: FieldSpec, text: string): boolean {
  const folded = text.toLowerCase().replace(/[_-]/g, ' ');
  return [...fieldLabels(field), ...localLabels(field)].some((label) => folded.includes(label));
}

/** The option a negation or an affirmation before the field's name chooses: `sin magic prompt` → Off. */
function switchedOption(field: FieldSpec, verb: string): string | undefined {
  const lists = readingWords().lists;
  const word = foldWord(verb);
  if (lists.negation.includes(word)) return conceptOption(field, 'off');
  if (lists.affirmation.includes(word)) return conceptOption(field, 'on');
  return undefined;
}

/** A bare option word this common (`on`, `auto`, `high`) says nothing alone; it needs its field's name beside it. */
const NEEDS_LABEL = new Set(['on', 'off', 'auto', 'none', 'any', 'default', 'high', 'low', 'medium', 'standard', 'normal', 'fast', 'slow', 'male', 'female', 'general', 'other', 'base', 'small', 'large', 'yes', 'no', 'true', 'false', 'left', 'right', 'center', 'centre', 'top', 'bottom', 'middle', 'up', 'down']);

const enumSynonym: Conversion = {
  pattern: enumPattern,
  // Every form holds an option word, but for the switch form (`sin magic prompt`), which holds the field's name.
  mayMatch: (text, field) => mayNameOption(field, text) || (switchesOnOff(field) && mayNameField(field, text)) || (switchLike(field) && maySayAction(field, text)),
  convert(groups, field) {
    if (groups.act !== undefined) {
      const option = actionOption(stringOptions(field), switchOption(field, 'off'), switchOption(field, 'on'), groups.act, groups.actNeg !== undefined);
      return option === undefined ? undefined : { value: option, fit: 'ok' };
    }
    if (groups.spread !== undefined) {
      const option = spreadOption(stringOptions(field), groups.spread);
      return option === undefined ? undefined : { value: option, fit: 'ok' };
    }
    const verb = groups.verb ?? groups.aux;
    if (verb !== undefined) {
      const option = switchedOption(field, verb);
      return option === undefined ? undefined : { value: option, fit: 'ok' };
    }
    const written = groups.option ?? groups.option2 ?? groups.option4 ?? groups.option5 ?? groups.option6 ?? groups.option7 ?? groups.option3 ?? '';
    const named = optionNamed(field, written);
    if (named === undefined) return undefined;
    // `audio en español`: a code of two letters beside what is made is a small word of the sentence (`en`, `de`, `a`).
    const besideMedia = groups.option4 ?? groups.option5;
    if (besideMedia !== undefined && /^\p{L}{1,2}$/u.test(besideMedia.trim())) return undefined;
    // A word as common as `on` or `high` needs its field's name even when picked out (`only high`).
    const bare = [groups.option3, groups.option4, groups.option5, groups.option6, groups.option7].some((written) => written !== undefined);
    if (bare && NEEDS_LABEL.has(optionKey(named.concept ?? named.option))) return undefined;
    // A name inside a coded option (`bella` for `af_bella`) is as likely a person in the text: only beside the field's name.
    if (named.part === true && groups.option === undefined && groups.option2 === undefined) return undefined;
    return { value: named.option, fit: 'ok' };
  },
};

// ---- values implied by another choice ----------------------------------------------------------------------------

/**
 * True when `words` give `field` the `value` it holds: the value itself (a file's address, an option or a number
 * as written), or what one of the other conversions reads there (`افصل الغيتار فقط` → guitar). The trigger of a
 * dependent value (dependent.ts) must be the user's own setting, cited.
 */
function wordsGive(words: string, field: FieldSpec, value: unknown): boolean {
  const written = words.trim();
  if (written === '') return false;
  if (typeof value === 'string' && (written === value.trim() || holdsWord(written, value))) return true;
  if (Array.isArray(value) && value.some((item) => typeof item === 'string' && item.trim() === written)) return true;
  if (typeof value === 'number' && (written.match(/\d+(?:\.\d+)?/g) ?? []).some((number) => Number(number) === value)) return true;
  return CONVERSION_NAMES.some((name) => name !== 'dependent_option' && deriveValue(name, written, field)?.value === value);
}

/** The option written in the words as a whole word (`htdemucs_6s`, `guitar`), case aside. */
function holdsWord(words: string, option: string): boolean {
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRegExp(option.trim())}(?![\\p{L}\\p{N}_])`, 'iu');
  return option.trim() !== '' && pattern.test(words);
}

/** Read against the payload (deriveValue): no phrase of the text gives it by itself. */
const dependent: Conversion = {
  pattern: () => null,
  convert: () => undefined,
};

/** `the white part of the mask should stay` → the switch state that keeps white (mask-sides.ts). */
const maskSide: Conversion = {
  pattern: maskSidePattern,
  convert(groups, field) {
    const value = maskSideValue(groups, field);
    return value === undefined ? undefined : { value, fit: 'ok' };
  },
};

const CONVERSIONS: Record<ConversionName, Conversion> = {
  duration,
  frames,
  count,
  aspect_word: aspect,
  resolution_word: resolution,
  format_word: format,
  language_name: language,
  negated_switch: negatedSwitch,
  enum_synonym: enumSynonym,
  unit_number: unitNumber,
  decimal_comma: decimalComma,
  multiple_word: multipleWord,
  native_digits: nativeDigits,
  dependent_option: dependent,
  mask_side: maskSide,
  size_preset: sizePreset,
};
