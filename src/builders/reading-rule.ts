/**
 * The reading core (src/reading) as a directive rule: settings written the way people write them, in nine
 * languages (`vertical`, `six seconds`, `sin audio`, `en français`, `4K`, `.png`, `style: design`), each placed
 * with the user's phrase as evidence and the conversion that turns it into the value. And the other half of the
 * promise: a phrase that reads as a setting and that no rule placed is reported as unplaced, never dropped.
 */
import type { FieldSpec, UnusedRequest } from '../generated/contracts.ts';
import { findSettingPhrases, isConversionName, isFiller, readSettings, type ConversionName, type SettingPhrase } from '../reading/index.ts';
import { makeDirective } from './clause-words.ts';
import { overlaps, type Directive, type RuleContext, type Span } from './directive-types.ts';

/** The prefix of a directive's rule that names a reading conversion (`reading:duration`). */
export const READING_RULE_PREFIX = 'reading:';

/** The conversion a directive's rule records, for the value's provenance (the validator re-runs it). */
export function readingConversion(rule: string): ConversionName | undefined {
  const name = rule.startsWith(READING_RULE_PREFIX) ? rule.slice(READING_RULE_PREFIX.length) : TABLE_CONVERSIONS[rule];
  return isConversionName(name) ? name : undefined;
}

/** The request table's rows read the same phrases as these conversions (request-table.ts). */
const TABLE_CONVERSIONS: Readonly<Record<string, ConversionName>> = {
  'table:duration': 'duration',
  'table:language': 'language_name',
  'table:format': 'format_word',
};

/** Readings for the fields the prompt may fill, as loose directives (firm ones need no clause of their own). */
export function readingRule(context: RuleContext): Directive[] {
  const fields = [...context.typedFields, ...context.textFields];
  return readSettings(context.text, fields).map((reading) => {
    const directive = makeDirective(context.text, reading.start, reading.end, 'loose', `${READING_RULE_PREFIX}${reading.conversion}`, [
      { field: reading.field, value: reading.value, fit: reading.fit },
    ]);
    return { ...directive, phrase: reading.phrase, needsOwnClause: !reading.firm, ...(reading.keepInText ? { keepInPrompt: true } : {}) };
  });
}

const KIND_WORDS: Record<SettingPhrase['kind'], string> = {
  duration: 'a duration',
  frames: 'a number of frames',
  count: 'a number of outputs',
  aspect_word: 'an aspect ratio',
  resolution_word: 'a resolution',
  format_word: 'a file format',
  language_name: 'an output language',
  negated_switch: 'that switch',
  enum_synonym: 'that option',
  unit_number: 'a number of this unit',
  decimal_comma: 'a number',
  multiple_word: 'a number of times bigger',
  native_digits: 'a number',
  size_preset: 'a picture size',
};

/** An option named bare in text the prompt keeps, with the option it names. */
export interface KeptOption extends UnusedRequest {
  field: string;
  value: unknown;
}

/** Setting phrases nothing placed: those to report now, and bare options the prompt keeps (see below). */
export interface UnplacedSettings {
  unused: UnusedRequest[];
  /**
   * Options named bare in text a prompt input keeps (`a photorealistic ad`, `hates anime`): the words still reach
   * the model, so they are reported only where they do not (a later turn that only changes settings).
   */
  keptInText: KeptOption[];
}

/**
 * Setting phrases nothing placed: firm ones wherever they stand, the others only alone in their clause (so `a
 * portrait of a woman` stays the picture's words). An option of one of the model's own fields (`separate the
 * drums`, `sépare la voix`) counts wherever it stands, unless its field holds that option already (set, or its
 * default): the model offers that very choice, so words naming it are a choice nobody made. Named bare, it is
 * reported when no prompt input takes the text (the words go nowhere), and kept apart otherwise. `known` are
 * phrases already reported by another list; `fields` the fields the text may set; `promptKeepsText` whether a
 * prompt input takes the text.
 */
export function unplacedSettings(
  text: string,
  accepted: readonly Directive[],
  quoted: readonly Span[],
  known: readonly Span[],
  fields: readonly FieldSpec[] = [],
  promptKeepsText = true,
): UnplacedSettings {
  const taken = [...accepted, ...known];
  const result: UnplacedSettings = { unused: [], keptInText: [] };
  const seen: Span[] = [];
  const phrases = findSettingPhrases(text, fields);
  for (const phrase of phrases) {
    if (taken.some((span) => overlaps(span, phrase)) || seen.some((span) => overlaps(span, phrase))) continue;
    if (quoted.some((span) => span.start < phrase.start && phrase.end < span.end)) continue;
    const option = phrase.option;
    if (option === undefined) {
      if (!phrase.firm && !aloneInClause(text, phrase, accepted)) continue;
      seen.push(phrase);
      result.unused.push({ phrase: phrase.phrase, reason: `the model has no input that takes ${KIND_WORDS[phrase.kind]} like this` });
      continue;
    }
    // The field holds that option already: set by another phrase, or the model's default (`transcribe` a recording).
    if (accepted.some((directive) => directive.values.some((value) => value.field === option.field && value.value === option.value))) continue;
    if (fields.some((field) => field.name === option.field && field.default === option.value)) continue;
    if (!phrase.firm && !choosesOption(phrase, phrases)) continue;
    seen.push(phrase);
    const entry = { phrase: phrase.phrase, reason: `it names the ${option.field} option "${String(option.value)}", which was not set` };
    if (phrase.firm || !promptKeepsText) result.unused.push(entry);
    else result.keptInText.push({ ...entry, ...option });
  }
  return result;
}

/**
 * A bare option word chooses its option unless it is a word of two letters (`it`, `is`, `de`: language codes are
 * also the commonest words) or the text names another option of the same field bare too (`a great bass and piano
 * intro`: a list of what is there, not a choice of one).
 */
function choosesOption(phrase: SettingPhrase, phrases: readonly SettingPhrase[]): boolean {
  if (/^\p{L}{1,2}$/u.test(phrase.phrase.trim())) return false;
  return !phrases.some(
    (other) => other.option !== undefined && !other.firm && other.option.field === phrase.option?.field && other.option.value !== phrase.option.value && !overlaps(other, phrase),
  );
}

const CLAUSE_BREAK = /[,;|\n()。、，；،؛]|[.!?](?=\s|$)/gu;

/** True when, apart from the accepted phrases and filler words, the phrase is all its clause holds. */
export function aloneInClause(text: string, phrase: Span, accepted: readonly Span[]): boolean {
  let from = 0;
  let to = text.length;
  for (const match of text.matchAll(CLAUSE_BREAK)) {
    if (match.index < phrase.start) from = match.index + 1;
    else if (match.index >= phrase.end) {
      to = match.index;
      break;
    }
  }
  const chars = text.slice(from, to).split('');
  for (const span of [phrase, ...accepted]) {
    for (let i = Math.max(span.start, from); i < Math.min(span.end, to); i += 1) chars[i - from] = ' ';
  }
  return isFiller(chars.join(''));
}
