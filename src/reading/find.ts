/**
 * Finds the settings a person would read in a request: for each kind of setting, the schema's field that takes
 * it (fields.ts), every phrase of that kind in the text, and the value the named conversion gives it
 * (conversions.ts). Also every phrase that reads as a setting whatever the schema, so the caller can report
 * those no field took instead of dropping them.
 *
 * A phrase is `firm` when its own words make it a setting (`in Spanish`, `10 seconds`, `vertical format`,
 * `as png`, `style: design`); otherwise it counts only standing apart from the description, in a clause of its
 * own (`a fox, vertical`), which the caller decides, since it knows the other phrases of the clause.
 */
import type { FieldSpec } from '../generated/contracts.ts';
import {
  aspectPattern,
  conversionMatches,
  countPattern,
  formatPattern,
  formatSwitch,
  isFormatField,
  KNOWN_FORMATS,
  languagePattern,
  orientationOf,
  resolutionPattern,
  switchPattern,
  timeUnitPattern,
  type ConversionName,
  type Converted,
} from './conversions.ts';
import { aspectField, countField, durationField, framesField, isNumericField, languageField, resolutionField } from './fields.ts';
import { switchKeeps } from './mask-sides.ts';
import { isDigitsOnly, parseWrittenNumber } from './numbers.ts';
import { allMatches, anyWord, isUnspaced, writtenWordStart } from './patterns.ts';
import { anyUnitNumberPattern, enlargeVerbInClause, isFirmUnitNumber, multiplePattern, scaleField, unitKeyOf, unitOfField } from './quantities.ts';
import { foldWord, readingWords } from './words.ts';

/** A value read for a field, with the user's words it came from and the conversion that gives it. */
export interface Reading {
  field: string;
  value: unknown;
  fit: Converted['fit'];
  conversion: ConversionName;
  start: number;
  end: number;
  phrase: string;
  firm: boolean;
  /** The words still describe what is made (`a vertical video`): the value is read, the words stay in the description. */
  keepInText: boolean;
}

/** A phrase that reads as a setting, whether or not a field takes it. */
export interface SettingPhrase {
  kind: ConversionName;
  start: number;
  end: number;
  phrase: string;
  firm: boolean;
  /** For an option (`enum_synonym`): the field whose option the words name, and that option. */
  option?: { field: string; value: unknown };
}

type Groups = Record<string, string | undefined>;

/** Every value the text gives the schema's fields, in text order (overlaps are the caller's to settle). */
export function readSettings(text: string, fields: readonly FieldSpec[]): Reading[] {
  const readings: Reading[] = [];
  const shown = contentSpans(text);
  for (const [conversion, field] of fieldsByConversion(fields)) {
    for (const found of conversionMatches(conversion, text, field)) {
      // `ובפורמט png`: the phrase is the whole written word, prefixes and all, as the user wrote it.
      const start = writtenWordStart(text, found.start);
      if (isContent(conversion, text, start, found.end, found.groups, shown)) continue;
      const span = spanOf(conversion, text, start, found.end, found.groups);
      readings.push({
        field: field.name,
        value: found.converted.value,
        fit: found.converted.fit,
        conversion,
        start: span.start,
        end: span.end,
        phrase: text.slice(start, found.end),
        firm: isFirm(conversion, text, start, found.end, found.groups),
        keepInText: conversion === 'aspect_word' || (conversion === 'enum_synonym' && describesWhatIsMade(found.groups)),
      });
    }
  }
  return withRefinedOptions(text, withoutSharedBareOptions(readings)).sort((a, b) => a.start - b.start || a.end - b.end);
}

/**
 * `a black and white realistic photo`: two options of one field side by side, one of them the other refined
 * (`realistic_image` and `realistic_image/b_and_w`), say the refined one; it stands as firmly as its neighbour.
 */
function withRefinedOptions(text: string, readings: readonly Reading[]): Reading[] {
  const options = readings.filter((reading) => reading.conversion === 'enum_synonym');
  if (options.length < 2) return [...readings];
  const dropped = new Set<Reading>();
  const replaced = new Map<Reading, Reading>();
  for (const a of options) {
    for (const b of options) {
      if (a === b || a.field !== b.field || a.end > b.start || !/^[\s,]*$/u.test(text.slice(a.end, b.start))) continue;
      const pair: [Reading, Reading] | undefined = refines(a.value, b.value) ? [a, b] : refines(b.value, a.value) ? [b, a] : undefined;
      if (!pair) continue;
      const [general, refined] = pair;
      dropped.add(general);
      replaced.set(refined, { ...refined, firm: refined.firm || general.firm, keepInText: refined.keepInText || general.keepInText });
    }
  }
  return readings.filter((reading) => !dropped.has(reading)).map((reading) => replaced.get(reading) ?? reading);
}

/** True when option `refined` holds every word of option `general` and more. */
function refines(general: unknown, refined: unknown): boolean {
  const words = (value: unknown): string[] => String(value).toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const inner = words(general);
  const outer = words(refined);
  return inner.length > 0 && outer.length > inner.length && inner.every((word) => outer.includes(word));
}

/** `a realistic photo`: the option word describes what is made, so it stays in the description too. */
function describesWhatIsMade(groups: Groups): boolean {
  return groups.media !== undefined || groups.media2 !== undefined;
}

/**
 * A bare option word (no field named) that options of two fields share (`off`, `anime` for a style and a
 * preset) says which value but not where: neither field takes it from there.
 */
function withoutSharedBareOptions(readings: readonly Reading[]): Reading[] {
  const bare = (reading: Reading) => reading.conversion === 'enum_synonym' && !reading.firm;
  return readings.filter(
    (reading) => !bare(reading) || !readings.some((other) => other !== reading && other.conversion === 'enum_synonym' && other.field !== reading.field && other.start < reading.end && reading.start < other.end),
  );
}

/**
 * Every phrase of the text that reads as a setting for some model, placed or not; with the schema's fields, also
 * every phrase naming one of their options, in any reading language (`drums`, `la batería`, `パターン`), wherever
 * it stands: an option word is a setting only for a model that has the option, so no model-free list holds them.
 */
export function findSettingPhrases(text: string, fields: readonly FieldSpec[] = []): SettingPhrase[] {
  const found: SettingPhrase[] = [];
  const kinds: [ConversionName, RegExp][] = [
    ['duration', timeUnitPattern()],
    ['count', countPattern()],
    ['aspect_word', aspectPattern()],
    ['resolution_word', resolutionPattern()],
    ['format_word', formatPattern(KNOWN_FORMATS)],
    ['language_name', languagePattern()],
    // `fix the faces`, `make it loop`: a feature asked for by name is a switch too.
    ['negated_switch', switchPattern([...readingWords().features.keys()], [...readingWords().featureRequests.keys()])],
    ['unit_number', anyUnitNumberPattern()],
    // `make it twice as big`, `4x`: a number of times bigger, firm beside a word asking for a bigger picture.
    ['multiple_word', multiplePattern()],
  ];
  const shown = contentSpans(text);
  for (const [kind, pattern] of kinds) {
    for (const match of allMatches(pattern, text)) {
      const groups = match.groups ?? {};
      if (kind === 'duration' && !durationWords(groups)) continue;
      const end = match.index + match[0].length;
      const start = writtenWordStart(text, match.index);
      if (isContent(kind, text, start, end, groups, shown)) continue;
      found.push({ kind, start, end, phrase: text.slice(start, end), firm: isFirm(kind, text, start, end, groups) });
    }
  }
  for (const field of fields) {
    if (field.type !== 'string' || !Array.isArray(field.enum) || field.enum.length === 0) continue;
    for (const match of conversionMatches('enum_synonym', text, field)) {
      const start = writtenWordStart(text, match.start);
      if (isContent('enum_synonym', text, start, match.end, match.groups, shown)) continue;
      const firm = isFirm('enum_synonym', text, start, match.end, match.groups);
      found.push({ kind: 'enum_synonym', start, end: match.end, phrase: text.slice(start, match.end), firm, option: { field: field.name, value: match.converted.value } });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

/** Which field each conversion reads into; a conversion with no field in this schema reads nothing. */
function fieldsByConversion(fields: readonly FieldSpec[]): [ConversionName, FieldSpec][] {
  const pairs: [ConversionName, FieldSpec | undefined][] = [
    ['duration', durationField(fields)],
    ['frames', framesField(fields)],
    ['count', countField(fields)],
    ['aspect_word', aspectField(fields)],
    ['language_name', languageField(fields)],
  ];
  const scale = scaleField(fields);
  if (scale) pairs.push(['multiple_word', scale]);
  const resolution = resolutionField(fields);
  if (resolution) pairs.push(['resolution_word', resolution]);
  else {
    const width = fields.find((field) => field.role === 'width' && isNumericField(field));
    const height = fields.find((field) => field.role === 'height' && isNumericField(field));
    if (width && height) pairs.push(['resolution_word', width], ['resolution_word', height]);
  }
  // A field of file-format options stands in for an output format only on a model that has none by name.
  const namedFormat = fields.some((field) => field.role === 'output_format');
  for (const field of fields) {
    if (field.role === 'output_format' || (!namedFormat && isFormatField(field)) || formatSwitch(field) !== undefined) pairs.push(['format_word', field]);
    if (field.type === 'boolean') pairs.push(['negated_switch', field]);
    if (switchKeeps(field) !== undefined) pairs.push(['mask_side', field]);
    if (unitOfField(field) !== undefined) pairs.push(['unit_number', field]);
    if (field.type === 'string' && Array.isArray(field.enum) && field.enum.length > 0) pairs.push(['enum_synonym', field]);
  }
  return pairs.filter((pair): pair is [ConversionName, FieldSpec] => pair[1] !== undefined);
}

/**
 * Words that are the picture's or the song's, not a setting: anything in text to show (`a sign that reads PNG
 * FILES ONLY`) or in a web address, and a length that qualifies another thing (`a 30 minute pizza delivery`: a word follows the unit
 * that is not what is made, nor a small word); `a 1080p television` likewise.
 */
function isContent(kind: ConversionName, text: string, start: number, end: number, groups: Groups, shown: readonly Span[]): boolean {
  if (shown.some((span) => span.start <= start && end <= span.end) || isAskedAbout(text, start)) return true;
  if (kind === 'language_name') return isNationality(text, start, end);
  if (kind === 'format_word') return isRefusedFormat(text, start, end);
  if (kind !== 'resolution_word' && kind !== 'duration') return false;
  // `five seconds of rain`, `une minute et demie d'accordéon`: what the length is of follows.
  if (kind === 'duration' && followedBy(text, end, readingWords().lists.countTrails)) return false;
  const next = /^[\s-]+([\p{L}']+)/u.exec(text.slice(end, end + 40))?.[1]?.toLowerCase();
  if (next === undefined || isUnspaced(next)) return false;
  const words = readingWords().lists;
  const qualifies = !fillerWords().has(next) && !words.mediaNouns.includes(next) && !SMALL_WORDS_AFTER_LENGTH.has(next) && !words.countTrails.includes(next);
  // A length may qualify what is made through adjectives (`an 8 second ambient track`): it is content only
  // when no word for what is made follows in the next few words of its clause.
  // `upscale to 4k`, `skaliere das Video auf 2k hoch`: after a lead the word is the resolution asked for; not after
  // `a`, which leads it in Spanish and Portuguese but is the English article (`an ad for a 1080p television`).
  if (kind === 'resolution_word') return qualifies && (/(?:^|\s)a\s+$/iu.test(text.slice(Math.max(0, start - 3), start)) || !resolutionLed(text, start, end, groups));
  // Only a unit in the form of an adjective (`a 30 minute pizza delivery`, Latin script, not plural) qualifies
  // what follows; `30 seconds slow piano` is a length said for itself, and so is a unit before a clitic
  // conjunction in other scripts (`45 ثانية وبصيغة mp3`).
  const unit = groups.unit ?? '';
  const adjectiveForm = /^\p{Script=Latin}{2,}$/u.test(unit) && !/s$/i.test(unit);
  return qualifies && adjectiveForm && !mediaNounSoon(text, end);
}

/** Words before a format that say it is the one not wanted (`an mp4 instead of a gif`), in the reading languages. */
const REFUSING = [
  'instead of', 'rather than', 'not', 'en vez de', 'en lugar de', 'no en', 'au lieu de', 'plutôt que', 'pas en', 'statt', 'anstatt', 'nicht als',
  'em vez de', 'ao invés de', 'não em', 'вместо', 'не в', 'במקום', 'ולא', 'بدلا من', 'بدلاً من', 'وليس',
];
/** Written after a format that is not wanted (`gifではなく`). */
const REFUSING_AFTER = ['ではなく', 'じゃなくて', 'じゃなく'];

/** `an mp4 instead of a gif`, `mp4 statt gif`, `gifではなくmp4`: the format after such words is refused, not asked for. */
function isRefusedFormat(text: string, start: number, end: number): boolean {
  const article = '(?:(?:a|an|the|un|une|una|um|uma|ein|eine|einer|einem|einen)\\s+)?';
  return edgePattern('refusing', () => `${anyWord(REFUSING)}\\s*${article}$`).test(text.slice(Math.max(0, start - 30), start)) || followedBy(text, end, REFUSING_AFTER);
}

/**
 * `a French teacher`: a lead that is also an English article (`a`, which leads a language in Spanish and
 * Portuguese), then a language name and a word it qualifies, is a nationality, not the language asked for.
 */
function isNationality(text: string, start: number, end: number): boolean {
  if (!/^a\s/i.test(text.slice(start, end))) return false;
  const next = /^\s+([\p{L}']+)/u.exec(text.slice(end, end + 40))?.[1]?.toLowerCase();
  return next !== undefined && !fillerWords().has(next) && !readingWords().lists.languageTrails.includes(next);
}

function lengthOfWhatIsMade(text: string, start: number): boolean {
  const words = readingWords().lists;
  return edgePattern('media-of', () => `${anyWord(words.mediaNouns)}\\s+(?:${anyWord(words.countTrails)}\\s*)?$`).test(text.slice(Math.max(0, start - 40), start));
}

/** Words after a number of a unit that make it the length of what is made (`50 bars long`). */
const LENGTH_TRAILS = ['long', 'largo', 'larga', 'lang', 'longo', 'longa'];

/** `a waveform video with 50 bars`, `un vídeo con 50 barras`: what is made, then the word for "with", right before. */
function partOfWhatIsMade(text: string, start: number): boolean {
  const words = readingWords().lists;
  return edgePattern('media-with', () => `${anyWord(words.mediaNouns)}\\s+${anyWord(words.affirmation.filter((word) => !word.includes(' ') && !isUnspaced(word)))}\\s*$`).test(text.slice(Math.max(0, start - 40), start));
}

/** How many words after a length may still lead to what it measures (`a 2-minute chill lofi track`). */
const WORDS_TO_MEDIA_NOUN = 4;

function mediaNounSoon(text: string, end: number): boolean {
  const rest = text.slice(end);
  const clause = rest.slice(0, /[,;|\n()。、，；،؛]|[.!?](?=\s|$)/u.exec(rest)?.index ?? rest.length);
  const media = readingWords().lists.mediaNouns;
  return (clause.toLowerCase().match(/[\p{L}']+/gu) ?? []).slice(0, WORDS_TO_MEDIA_NOUN).some((word) => media.includes(word));
}

/** Words that may follow a length that is a setting (`10 seconds long`, `30 seconds of rain`, `6 seconds max`). */
const SMALL_WORDS_AFTER_LENGTH = new Set(['long', 'of', 'max', 'maximum', 'total', 'each', 'please', 'only', 'or', 'but', 'then', 'for', 'largo', 'larga', 'lang', 'longo', 'longa']);

interface Span {
  start: number;
  end: number;
}

/**
 * From each text-to-show lead (`that reads`, `con el texto`) to the end of its clause: words to show, not settings.
 * A comma ends it (`a flyer that says INSERT COIN, aspect ratio 2:3`) unless it stands between digits (`1,000
 * likes`); text to show with a comma of its own is quoted, and quotes are kept whole by the caller.
 */
export function shownTextSpans(text: string): Span[] {
  const leads = readingWords().lists.textLeads;
  if (leads.length === 0) return [];
  const spans: Span[] = [];
  for (const match of text.matchAll(edgePattern('text-leads', () => anyWord(leads), 'giu'))) {
    const from = match.index + match[0].length;
    const rest = text.slice(from);
    const stop = /,(?!\d)|[;|\n،؛、，；]|[.!?](?=\s|$)/u.exec(rest);
    spans.push({ start: from, end: stop ? from + stop.index : text.length });
  }
  return spans;
}

const WEB_ADDRESS = /(?:https?:\/\/|www\.)[^\s<>"'\u201C\u201D\u00AB\u00BB]+/giu;

/** Every web address, to the next space: `https://example.com/cat.png` names a file, not an output format. */
export function webAddressSpans(text: string): Span[] {
  return [...text.matchAll(WEB_ADDRESS)].map((match) => ({ start: match.index, end: match.index + match[0].length }));
}

/** Text to show and web addresses: words that are content wherever they stand. */
function contentSpans(text: string): Span[] {
  return [...shownTextSpans(text), ...webAddressSpans(text)];
}

/**
 * True when a question leads right into the phrase (`what does temperature 0.5 mean?`, `explain what max tokens
 * 500 does`): the phrase is what the user asks about, not a setting. Only an article may stand between.
 */
export function isAskedAbout(text: string, start: number): boolean {
  const leads = readingWords().lists.questionLeads;
  if (leads.length === 0) return false;
  const before = text.slice(Math.max(0, start - 60), start);
  return edgePattern('question-lead', () => `${anyWord(leads)}\\s+(?:(?:the|a|an|el|la|los|las|le|les|der|die|das|o|a|os|as)\\s+)?$`).test(before);
}

/** True when the words at start..end are content by the rules above (for readers outside this core). */
export function isContentAt(kind: ConversionName, text: string, start: number, end: number): boolean {
  const groups = kind === 'duration' ? ([...text.slice(start, end).matchAll(timeUnitPattern())][0]?.groups ?? {}) : {};
  return isContent(kind, text, start, end, groups, contentSpans(text));
}

/** A one-letter unit after digits is a unit; after a word it is a letter (`six s`). */
function durationWords(groups: Groups): boolean {
  if (groups.length !== undefined) return true;
  const unit = groups.unit ?? '';
  return unit.length > 1 || isDigitsOnly(groups.number ?? '');
}

function isFirm(kind: ConversionName, text: string, start: number, end: number, groups: Groups): boolean {
  const words = readingWords().lists;
  switch (kind) {
    case 'duration':
    case 'frames':
      // `10 seconds` is a length wherever it stands; `six seconds` is one in its own clause, before what it
      // measures (`a one minute orchestral piece`), or leading the request into what it is of (`five seconds of
      // rain`, `полминуты спокойной музыки`).
      return (
        isDigitsOnly(groups.number ?? '') ||
        followedBy(text, end, [...words.mediaNouns, 'long', 'largo', 'long', 'lang', 'longo']) ||
        (kind === 'duration' && mediaNounSoon(text, end)) ||
        // `a video of four seconds`, `vídeo de quatro segundos`: what is made, then the length it lasts.
        (kind === 'duration' && lengthOfWhatIsMade(text, start)) ||
        (onlyFillerBefore(text, start) && (followedBy(text, end, words.countTrails) || /^\s+\p{L}/u.test(text.slice(end)) || clauseEnds(text, end)))
      );
    case 'count':
      // `画像2枚`: a language that names what is counted first may put a word for it before the count; `ロゴを2パターン`:
      // the count follows what it counts and its particle.
      return (
        ((onlyFillerBefore(text, start) || onlyFillerBefore(text, start, words.mediaNouns)) &&
          (followedBy(text, end, words.countTrails) ||
            (countTrailAfterWord(text, end) && !isArticleOne(groups.number)) ||
            clauseEnds(text, end) ||
            madeSo(text, end) ||
            (joinsByCase(groups.unit ?? '') && /^\s+\p{L}/u.test(text.slice(end))))) ||
        (isUnspaced(groups.unit ?? '') && /[\p{Script=Han}\p{Script=Katakana}\u30FC]\s*を\s*$/u.test(text.slice(Math.max(0, start - 20), start)))
      );
    case 'aspect_word': {
      const noun = foldWord(groups.noun ?? '');
      const genre = words.aspectGenres.includes(foldWord(groups.word ?? ''));
      // `a square photo`, `una foto cuadrada`: beside what is made, `square` is its shape (the town square is a
      // thing, never made); a `portrait photo` may still be the genre.
      const shapeBeside = !genre || orientationOf(groups.word ?? '') === 'square';
      if (noun !== '' && (words.orientationNouns.includes(noun) || shapeBeside)) return true;
      // `un video vertical`, `une photo carrée`: where the adjective follows what is made, the noun before it.
      if (shapeBeside && precededBy(text, start, words.mediaNouns)) return true;
      // A phrase (`phone wallpaper`, `обои на телефон`) or a word of a script without spaces (`縦長`) says it alone.
      const written = foldWord(groups.word ?? '');
      if (!genre && (written.includes(' ') || isUnspaced(written))) return true;
      return precededBy(text, start, words.formatLeads);
    }
    case 'resolution_word':
      return resolutionLed(text, start, end, groups) || madeSo(text, end);
    case 'format_word':
      return groups.lead !== undefined || groups.dot !== undefined || groups.trail !== undefined || groups.subtitles !== undefined;
    case 'language_name':
      return true;
    case 'negated_switch':
      return groups.verb !== undefined || groups.aux !== undefined || groups.state2 !== undefined || groups.request !== undefined;
    case 'enum_synonym':
      // The field named next to its option (`style: anime`, `estilo anime`, `בסגנון פיקסל ארט`), a switch word
      // before it (`sin magic prompt`), the option describing what is made (`реалистичное фото`), or picked out of
      // a set (`only the vocals`, `ボーカルだけ`); a bare option word counts only alone in its clause.
      return groups.label !== undefined || groups.label2 !== undefined || groups.label3 !== undefined || groups.label4 !== undefined || groups.select !== undefined || groups.selectTrail !== undefined || describesWhatIsMade(groups) || codeLike(groups.option3 ?? groups.spread);
    case 'unit_number':
      // `make it 50 bars long`, `a waveform video with 50 bars`: a length of what is made, or a part what is made
      // comes with, is the setting; `a temple with 100 steps` is a thing in the picture.
      return isFirmUnitNumber(groups, unitKeyOf(groups.unit ?? '') ?? '') || followedBy(text, end, LENGTH_TRAILS) || partOfWhatIsMade(text, start);
    case 'decimal_comma':
      return true;
    case 'native_digits':
    case 'dependent_option':
    case 'size_preset':
      // Only recorded on values other rules read (prompt-directives.ts, size-presets.ts, the builder's dependent
      // settings): it never finds a setting by itself.
      return false;
    case 'mask_side':
      // A colour beside a part of the mask and what happens to it: nothing a picture's words say by chance.
      return true;
    case 'multiple_word':
      // `upscale it 4 times`, `al doble` after `amplía`, `2倍に拡大`: a multiple is a scale beside a word asking for
      // a bigger picture; alone (`a cat, 4x`) it counts only in a clause of its own.
      return enlargeVerbInClause(text, start, end);
  }
}

/**
 * `diez bocetos rápidos de un robot`, `سبع رسومات سريعة لجمل`: where the adjective follows what is counted, one word
 * may stand between it and the word that joins it to what it is of; in Arabic and Hebrew that word may be `ل`/`ל`
 * written onto the next word (for, of: `صورتان لقارب`).
 */
function countTrailAfterWord(text: string, end: number): boolean {
  const rest = text.slice(end, end + 60);
  const prefixed = (at: number) => /^\s+[\u0644\u05DC](?=\p{L}{2})/u.test(rest.slice(at));
  if (prefixed(0)) return true;
  const word = /^\s+[\p{L}'’-]+/u.exec(rest);
  if (!word) return false;
  return followedBy(rest, word[0].length, trailsAfterAdjective()) || prefixed(word[0].length);
}

/**
 * Only the languages that put the adjective after the noun (`bocetos rápidos de`, `croquis rapides d'`) may have a
 * word between what is counted and its trail; in English the word there is a verb (`4 images hang on the wall`).
 */
const ADJECTIVE_AFTER_NOUN = ['es', 'fr', 'pt', 'he', 'ar'] as const;

function trailsAfterAdjective(): string[] {
  return ADJECTIVE_AFTER_NOUN.flatMap((language) => readingWords().byLanguage[language].countTrails);
}

/** `una foto cuadrada de…`: "one" written as a word is the article there, not a count that asks for anything. */
function isArticleOne(number: string | undefined): boolean {
  return number !== undefined && !/\p{N}/u.test(number) && parseWrittenNumber(number) === 1;
}

/** `4枚にして`, `4kにアップスケール`: Japanese says "make it" (or the verb) after the value, which asks for it. */
const MADE_SO = /^\s*に(?:して|する|しよう|変更|変え|設定|アップスケール|拡大|延長|伸ば)/u;

function madeSo(text: string, end: number): boolean {
  return MADE_SO.test(text.slice(end, end + 20));
}

/**
 * An option written the way only a schema writes it (`expert_ensemble_refiner`, `sdxl-1.0`, `v1.4`): no sentence
 * holds it by chance, so it names its option wherever it stands.
 */
function codeLike(written: string | undefined): boolean {
  if (written === undefined) return false;
  return written.includes('_') || (/\p{L}/u.test(written) && /\p{N}/u.test(written) && /[-.]/.test(written) && written.length >= 4);
}

/**
 * A language with no word between a count and what it counts (its count trails are empty: Russian puts the
 * counted thing in the genitive, `пара вариантов логотипа`): the count's noun may run straight into it.
 */
function joinsByCase(unit: string): boolean {
  const folded = foldWord(unit);
  return Object.values(readingWords().byLanguage).some((words) => words.countTrails.length === 0 && words.images.some((word) => foldWord(word) === folded));
}

/** `in 4K`, `auf 2k`, or a lead written onto the value (`ל-4k`: the phrase holds it, before the resolution word). */
function resolutionLed(text: string, start: number, end: number, groups: Groups): boolean {
  const leads = readingWords().lists.resolutionLeads;
  if (precededBy(text, start, leads)) return true;
  const prefix = foldWord(text.slice(start, end - (groups.res ?? '').length));
  return prefix !== '' && (leads.includes(prefix) || leads.includes(prefix.replace(/-$/, '')));
}

/** `four images of a cat`: the span takes the joining word too, so the description keeps only `a cat`. */
function spanOf(kind: ConversionName, text: string, start: number, end: number, groups: Groups): { start: number; end: number } {
  if (kind === 'resolution_word') {
    // `in 4K`: the lead goes with the value, so the description does not keep a dangling `in`.
    const before = text.slice(Math.max(0, start - 40), start);
    const lead = edgePattern('resolution-lead', () => `${anyWord(readingWords().lists.resolutionLeads)}\\s*$`).exec(before);
    return { start: lead ? start - (before.length - lead.index) : start, end };
  }
  // `vídeo de quatro segundos de um beija-flor`: the joining word before the length goes with it.
  if (kind === 'duration' && !onlyFillerBefore(text, start) && lengthOfWhatIsMade(text, start)) {
    const joined = edgePattern('trail-before', () => `${anyWord(readingWords().lists.countTrails)}\\s*$`).exec(text.slice(Math.max(0, start - 20), start));
    return { start: joined ? start - (Math.min(start, 20) - joined.index) : start, end };
  }
  if ((kind !== 'count' && kind !== 'duration') || !onlyFillerBefore(text, start) || !isFirm(kind, text, start, end, groups)) return { start, end };
  const trails = readingWords().lists.countTrails;
  // `diez bocetos rápidos de un robot`: the adjective between goes with the count, so the description keeps `un robot`.
  const trail = edgePattern('count-trail', () => `^(?:\\s+[\\p{L}'’-]+)??\\s*${anyWord(trails)}`).exec(text.slice(end));
  return { start, end: trail ? end + trail[0].length : end };
}

const edgePatterns = new Map<string, RegExp>();

function edgePattern(key: string, build: () => string, flags = 'iu'): RegExp {
  let pattern = edgePatterns.get(key);
  if (!pattern) {
    pattern = new RegExp(build(), flags);
    edgePatterns.set(key, pattern);
  }
  return pattern;
}

function followedBy(text: string, end: number, words: readonly string[]): boolean {
  // `d’un`: the lists write the apostrophe plain, phones write it curly.
  return edgePattern(`after:${words.join('|')}`, () => `^\\s*-?\\s*${anyWord(words)}`).test(text.slice(end, end + 40).replace(/\u2019/g, "'"));
}

function precededBy(text: string, start: number, words: readonly string[]): boolean {
  return edgePattern(`before:${words.join('|')}`, () => `${anyWord(words)}\\s*$`).test(text.slice(Math.max(0, start - 40), start));
}

const CLAUSE_BREAK = /[,;|\n()。、，；،؛]|[.!?](?=\s|$)/gu;

function clauseEnds(text: string, end: number): boolean {
  return /^\s*(?:$|[,;|\n。、，；،؛]|[.!?](?:\s|$))/u.test(text.slice(end));
}

/** True when only filler words of any language stand between the start of the clause and `position`. */
export function onlyFillerBefore(text: string, position: number, alsoAllowed: readonly string[] = []): boolean {
  const before = text.slice(0, position);
  let clauseStart = 0;
  for (const match of before.matchAll(CLAUSE_BREAK)) clauseStart = match.index + 1;
  let clause = before.slice(clauseStart);
  for (const word of alsoAllowed) clause = clause.split(word).join(' ');
  return isFiller(clause);
}

/** True when every word of the text is a filler word of one of the reading languages (or there is none). */
export function isFiller(text: string): boolean {
  const filler = fillerWords();
  const words = text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
  return words.every((word) => filler.has(word));
}

let fillerSet: ReadonlySet<string> | undefined;

/** Every language's filler words, one word each (`please`, `por`, `favor`, `bitte`). */
export function fillerWords(): ReadonlySet<string> {
  fillerSet ??= new Set(readingWords().lists.filler.flatMap((entry) => entry.split(' ')));
  return fillerSet;
}
