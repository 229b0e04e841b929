/**
 * Request phrases the heuristic builder recognises and places where the schema has a matching field: token
 * limits (`max 50 tokens`), durations (`30 seconds`, `2 minutes`), output languages (`in French`,
 * `translate to German`) and output or subtitle formats (`as srt`, `in vtt format`). A data table: each row
 * says how the phrase is written, which fields take it (by the words of their names), and how its value is read.
 *
 * A recognised phrase no field takes, or whose value no option fits, is not dropped: the builder reports it on
 * the candidate (`unusedRequest`, with the reason), the validator turns that into a warning on the run, and the
 * gate parks the run under `auto_with_thresholds` and `require_human` (src/stages/gate.ts).
 */
import type { FieldSpec } from '../generated/contracts.ts';
import { isContentAt, type ConversionName } from '../reading/index.ts';
import { isNumeric, makeDirective } from './clause-words.ts';
import type { Directive, RuleContext } from './directive-types.ts';
import { identifierWords } from './field-vocabulary.ts';
import { fitOf, hasEnum } from './value-reading.ts';

export type RequestKind = 'token_limit' | 'duration' | 'language' | 'format';

/** One request phrase found in the text, before any field is chosen for it. */
export interface RequestPhrase {
  kind: RequestKind;
  start: number;
  end: number;
  phrase: string;
  /** The value as the user meant it: tokens and seconds as numbers, a language as its English name, a format word. */
  value: number | string;
}

interface TableRow {
  kind: RequestKind;
  /** How the phrase is written; group `value` is the value, group `unit` (durations) its unit. */
  patterns: readonly RegExp[];
  /** The field takes this kind when the words of its name include one of these … */
  fieldWords: readonly string[];
  /** … and none of these (`offset_seconds` is not how long the output is). */
  excludedWords?: readonly string[];
  /** The value of the phrase, or undefined when the match is not one after all. */
  read(groups: Record<string, string | undefined>): number | string | undefined;
}

/** Languages by English name and ISO 639-1 code: enough for the common output languages. */
export const LANGUAGES: Readonly<Record<string, string>> = {
  english: 'en', french: 'fr', german: 'de', spanish: 'es', italian: 'it', portuguese: 'pt', dutch: 'nl',
  russian: 'ru', ukrainian: 'uk', polish: 'pl', czech: 'cs', swedish: 'sv', norwegian: 'no', danish: 'da',
  finnish: 'fi', greek: 'el', turkish: 'tr', arabic: 'ar', hebrew: 'he', hindi: 'hi', bengali: 'bn',
  chinese: 'zh', mandarin: 'zh', japanese: 'ja', korean: 'ko', vietnamese: 'vi', thai: 'th', indonesian: 'id',
  malay: 'ms', persian: 'fa', romanian: 'ro', hungarian: 'hu', catalan: 'ca', tamil: 'ta', urdu: 'ur',
};
const LANGUAGE_NAMES = Object.keys(LANGUAGES).join('|');
const FORMATS = 'srt|vtt|webvtt|json|txt|text|plain text|tsv|csv|mp3|wav|flac|ogg|mp4|webm|gif|png|jpe?g|webp';

/** The reading conversion that reads the same phrases as each row (src/reading). */
const CONVERSION_OF_KIND: Record<RequestKind, ConversionName> = { token_limit: 'count', duration: 'duration', language: 'language_name', format: 'format_word' };

export const REQUEST_TABLE: readonly TableRow[] = [
  {
    kind: 'token_limit',
    patterns: [
      /(?<![\p{L}\p{N}])(?:max(?:imum)?|at most|up to|no more than|limit(?:ed)?(?: of| to)?|under|below|within)\s+(?<value>\d{1,6})\s+(?:new\s+|output\s+)?tokens?(?![\p{L}])/giu,
      /(?<![\p{L}\p{N}])(?<value>\d{1,6})\s+(?:new\s+|output\s+)?tokens?\s+(?:max(?:imum)?|at most|or (?:less|fewer))(?![\p{L}])/giu,
      /(?<![\p{L}\p{N}])max(?:imum)?\s+tokens?\s*(?:[:=]|of)?\s*(?<value>\d{1,6})(?![\p{N}])/giu,
    ],
    fieldWords: ['max tokens', 'max new tokens', 'max output tokens', 'maximum tokens', 'max completion tokens', 'max length', 'max new length'],
    read: (groups) => Number(groups.value),
  },
  {
    kind: 'duration',
    patterns: [
      /(?<![\p{L}\p{N}.])(?<value>\d{1,4}(?:\.\d+)?)\s*-?\s*(?<unit>seconds?|secs?|sec|minutes?|mins?|min)(?![\p{L}\p{N}])(?!\s+(?:ago|later|before|after|into)\b)/giu,
    ],
    fieldWords: ['duration', 'seconds', 'length in seconds', 'audio length', 'video length', 'total length', 'audio length in s', 'num seconds'],
    excludedWords: ['input', 'offset', 'start', 'end', 'fade', 'crossfade', 'min', 'max', 'continuation', 'chunk', 'segment', 'overlap', 'frame', 'delay'],
    read: (groups) => {
      const value = Number(groups.value);
      return /^m/i.test(groups.unit ?? '') ? value * 60 : value;
    },
  },
  {
    kind: 'language',
    patterns: [
      new RegExp(`(?<![\\p{L}\\p{N}])(?:in|into|to)\\s+(?<value>${LANGUAGE_NAMES})(?![\\p{L}])`, 'giu'),
      new RegExp(`(?<![\\p{L}\\p{N}])(?:translate(?:d)?|answer|respond|reply|write|speak)\\s+(?:it\\s+|this\\s+)?(?:in|into|to)\\s+(?<value>${LANGUAGE_NAMES})(?![\\p{L}])`, 'giu'),
      new RegExp(`(?<![\\p{L}\\p{N}])language\\s*[:=]\\s*(?<value>${LANGUAGE_NAMES})(?![\\p{L}])`, 'giu'),
    ],
    fieldWords: ['language', 'output language', 'target language', 'lang', 'target lang', 'tgt lang', 'language text only', 'target language text only'],
    excludedWords: ['input', 'source', 'src'],
    read: (groups) => (groups.value ?? '').toLowerCase(),
  },
  {
    kind: 'format',
    patterns: [
      new RegExp(`(?<![\\p{L}\\p{N}_])(?:as|in|into|to)\\s+(?:an?\\s+)?(?<value>${FORMATS})(?:\\s+(?:format|files?|subtitles?|captions?|transcripts?|output))?(?![\\p{L}\\p{N}_])`, 'giu'),
      new RegExp(`(?<![\\p{L}\\p{N}_])(?<value>${FORMATS})\\s+(?:format|subtitles?|captions?|transcripts?|files?|output)(?![\\p{L}\\p{N}_])`, 'giu'),
    ],
    fieldWords: ['format', 'output format', 'subtitle format', 'subtitles format', 'caption format', 'transcription', 'transcript format', 'transcription format', 'response format', 'file format', 'audio format', 'video format', 'image format'],
    read: (groups) => (groups.value ?? '').toLowerCase(),
  },
];

/** Every table phrase in the text, in text order (a phrase two rows read is kept once, first row wins). */
export function findRequestPhrases(text: string): RequestPhrase[] {
  const found: RequestPhrase[] = [];
  for (const row of REQUEST_TABLE) {
    for (const pattern of row.patterns) {
      for (const match of text.matchAll(pattern)) {
        const value = row.read(match.groups ?? {});
        if (value === undefined || (typeof value === 'number' && !Number.isFinite(value))) continue;
        const start = match.index;
        const end = start + match[0].length;
        if (found.some((other) => other.start < end && start < other.end)) continue;
        // `a 30 minute pizza delivery`, `a sign that reads PNG ONLY`: the picture's words, not a request.
        if (isContentAt(CONVERSION_OF_KIND[row.kind], text, start, end)) continue;
        found.push({ kind: row.kind, start, end, phrase: match[0], value });
      }
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

/** The field of the schema that takes a kind: the first, in the author's order, whose name fits the row. */
export function fieldForKind(kind: RequestKind, fields: readonly FieldSpec[]): FieldSpec | undefined {
  const row = REQUEST_TABLE.find((candidate) => candidate.kind === kind);
  if (!row) return undefined;
  return fields.find((field) => {
    const words = identifierWords(field.name);
    const title = identifierWords(field.title ?? '');
    if (row.excludedWords?.some((word) => words.split(' ').includes(word))) return false;
    return row.fieldWords.some((phrase) => words === phrase || words.endsWith(` ${phrase}`) || title === phrase) && typeFits(kind, field);
  });
}

function typeFits(kind: RequestKind, field: FieldSpec): boolean {
  switch (kind) {
    case 'token_limit':
      return field.type === 'integer';
    case 'duration':
      return isNumeric(field) || (hasEnum(field) && field.enum.every((member) => !Number.isNaN(Number(member))));
    case 'language':
    case 'format':
      return field.type === 'string';
  }
}

/** The value the field takes for a phrase, or why it takes none. */
export type Placement = { value: unknown; fit: 'ok' | 'out_of_range' } | { reason: string };

export function placeValue(found: RequestPhrase, field: FieldSpec): Placement {
  if (typeof found.value === 'number') {
    if (hasEnum(field)) {
      const member = field.enum.find((option) => Number(option) === found.value);
      return member === undefined ? { reason: `${field.name} takes only ${listOptions(field)}` } : { value: member, fit: 'ok' };
    }
    // A number the model cannot take is kept as written: the validator's range issue sends it to a person.
    return { value: found.value, fit: fitOf(field, found.value) === 'ok' ? 'ok' : 'out_of_range' };
  }
  const wanted = found.kind === 'language' ? [found.value, LANGUAGES[found.value] ?? found.value] : [found.value, found.value.replace(/^text$/, 'plain text'), found.value.replace(/^jpg$/, 'jpeg')];
  if (hasEnum(field)) {
    const member = field.enum.find((option) => typeof option === 'string' && wanted.includes(option.toLowerCase()));
    return member === undefined ? { reason: `${field.name} takes only ${listOptions(field)}` } : { value: member, fit: 'ok' };
  }
  // A free-text field: the word as the user wrote it (`French`), which is also what traces it to them.
  return { value: found.phrase.match(new RegExp(String(found.value), 'i'))?.[0] ?? found.value, fit: 'ok' };
}

function listOptions(field: FieldSpec): string {
  const options = (field.enum ?? []).map(String);
  return options.length > 8 ? `${options.slice(0, 8).join(', ')}, …` : options.join(', ');
}

/** The table as a directive rule: phrases a field takes become directives (`loose`: implied, not named). */
export function requestTableRule(context: RuleContext): Directive[] {
  const directives: Directive[] = [];
  for (const found of findRequestPhrases(context.text)) {
    const field = fieldForKind(found.kind, context.typedFields.concat(context.textFields));
    if (!field) continue;
    const placed = placeValue(found, field);
    if (!('value' in placed)) continue;
    directives.push(makeDirective(context.text, found.start, found.end, 'loose', `table:${found.kind}`, [{ field: field.name, value: placed.value, fit: placed.fit }]));
  }
  return directives;
}

const KIND_WORDS: Record<RequestKind, string> = {
  token_limit: 'a token limit',
  duration: 'a duration',
  language: 'an output language',
  format: 'an output format',
};

/** Why a recognised phrase went unplaced: no field of its kind, or no option that fits. */
export function unplacedReason(found: RequestPhrase, fields: readonly FieldSpec[]): string {
  const field = fieldForKind(found.kind, fields);
  if (!field) return `the model has no input for ${KIND_WORDS[found.kind]}`;
  const placed = placeValue(found, field);
  return 'reason' in placed ? placed.reason : `${field.name} did not take it`;
}
