/**
 * The reading core (src/reading) as a directive rule: settings written the way people write them, in nine
 * languages (`vertical`, `six seconds`, `sin audio`, `en français`, `4K`, `.png`, `style: design`), each placed
 * with the user's phrase as evidence and the conversion that turns it into the value. And the other half of the
 * promise: a phrase that reads as a setting and that no rule placed is reported as unplaced, never dropped.
 */
import type { UnusedRequest } from '../generated/contracts.ts';
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
};

/**
 * Setting phrases nothing placed: firm ones wherever they stand, the others only alone in their clause (so `a
 * portrait of a woman` stays the picture's words). `known` are phrases already reported by another list.
 */
export function unplacedSettings(text: string, accepted: readonly Span[], quoted: readonly Span[], known: readonly Span[]): UnusedRequest[] {
  const taken = [...accepted, ...known];
  const found: UnusedRequest[] = [];
  const seen: Span[] = [];
  for (const phrase of findSettingPhrases(text)) {
    if (taken.some((span) => overlaps(span, phrase)) || seen.some((span) => overlaps(span, phrase))) continue;
    if (quoted.some((span) => span.start < phrase.start && phrase.end < span.end)) continue;
    if (!phrase.firm && !aloneInClause(text, phrase, accepted)) continue;
    seen.push(phrase);
    found.push({ phrase: phrase.phrase, reason: `the model has no input that takes ${KIND_WORDS[phrase.kind]} like this` });
  }
  return found;
}

const CLAUSE_BREAK = /[,;|\n()。、，；،؛]|[.!?](?=\s|$)/gu;

function aloneInClause(text: string, phrase: Span, accepted: readonly Span[]): boolean {
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
