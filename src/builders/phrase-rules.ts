/**
 * The rules for parameter phrases without a field name: `4 images`, `50 steps`, `with face enhance`,
 * `upscale 4x`. Phrases that could also be picture content (`a temple with 100 steps`) carry needsOwnClause and
 * count only where they stand apart from the description (see prompt-directives.ts).
 */
import type { FieldSpec } from '../generated/contracts.ts';
import { WORD_CHAR, type Directive, type RuleContext } from './directive-types.ts';
import { clauseEndsAt, isNumeric, makeDirective, onlyFillerBefore, windowBefore } from './clause-words.ts';
import { escapeRegExp, identifierWords, phrasePattern } from './field-vocabulary.ts';
import { fieldPattern } from './pattern-cache.ts';
import { fitOf, hasEnum } from './value-reading.ts';

const COUNT =
  /(?<![\p{L}\p{N}_.-])(\d{1,3})\s+(?:images?|outputs?|variations?|pictures?|photos?|versions?|samples?|variants?)(?![\p{L}\p{N}_])/giu;
/** `these 2 images` refers to what the user attached, not to how many outputs to make. */
const DETERMINER_BEFORE = /(?:^|[^\p{L}\p{N}_])(?:these|those|the|my|both|our|your|his|her|their|attached|of|all)\s+$/iu;
const OF_AFTER = /^\s+of(?![\p{L}\p{N}_])/iu;
const IN_AS_BEFORE = /(?:^|[^\p{L}\p{N}_])(?:in|as)\s+$/iu;

/**
 * `4 images` → num_outputs. It counts in a clause of its own (`a cat, 4 images`), at the head of the prompt
 * (`4 images of a cat`, span through `of`) or after `in`/`as` (`a cat in 4 variations`). In those places it
 * cannot be picture content, so a count the model cannot make (`5 images` with at most 4) is still the
 * user's word: it is kept as written, and the validator's range issue sends the run to a person, as for
 * `width 100`. Dropping it would execute a payload that quietly ignores what was asked.
 */
export function countRule(context: RuleContext): Directive[] {
  const field = context.primary.get('num_outputs');
  if (!field || !isNumeric(field)) return [];
  const found: Directive[] = [];
  for (const match of context.text.matchAll(COUNT)) {
    const before = windowBefore(context.text, match.index);
    if (DETERMINER_BEFORE.test(before)) continue;
    const value = Number(match[1]);
    let end = match.index + match[0].length;
    const of = OF_AFTER.exec(context.text.slice(end));
    let needsOwnClause = !IN_AS_BEFORE.test(before);
    if (of && onlyFillerBefore(context.text, match.index)) {
      end += of[0].length;
      needsOwnClause = false;
    }
    const count = makeDirective(context.text, match.index, end, 'loose', 'count', [{ field: field.name, value, fit: fitOf(field, value) }]);
    // The evidence is `4 images`; the span also covers a following `of`, so `4 images of a cat` leaves `a cat`.
    found.push({ ...count, phrase: match[0], needsOwnClause });
  }
  return found;
}

const STEPS = /(?<![\p{L}\p{N}_.-])(\d{1,4})\s+(?:(?:inference|denoising|sampling|diffusion)\s+)?steps?(?![\p{L}\p{N}_])/giu;
const STEPS_LEAD = /(?:^|[^\p{L}\p{N}_])(?:using|at|in|for)\s+$/iu;

/** `50 steps` → steps, only in a clause of its own or after `using/at/in/for` (not `a temple with 50 steps`). */
export function stepsRule(context: RuleContext): Directive[] {
  const field = context.primary.get('steps');
  if (!field || !isNumeric(field)) return [];
  const found: Directive[] = [];
  for (const match of context.text.matchAll(STEPS)) {
    const value = Number(match[1]);
    const end = match.index + match[0].length;
    const needsOwnClause = !(STEPS_LEAD.test(windowBefore(context.text, match.index)) && clauseEndsAt(context.text, end));
    // A count the model cannot take (`1000 steps` past the maximum) is kept as written, for a person to see.
    const steps = makeDirective(context.text, match.index, end, 'loose', 'steps', [{ field: field.name, value, fit: fitOf(field, value) }]);
    found.push({ ...steps, needsOwnClause });
  }
  return found;
}

const ON_WORDS = ['with', 'enable', 'enabled', 'turn on', 'use', 'activate', 'apply', 'add', 'include'];
const OFF_WORDS = ['without', 'disable', 'disabled', 'turn off', 'no', 'skip', 'deactivate', 'remove', "don't use", 'do not use', "don't apply", 'do not apply'];
const NEGATING_PREFIX = new Set(['disable', 'no', 'skip', 'without', 'remove', 'hide']);
const AFFIRMING_PREFIX = new Set(['enable', 'apply', 'use', 'add', 'with', 'show', 'include']);
const TOGGLE_VERB = new RegExp(`(${[...ON_WORDS, ...OFF_WORDS].sort((a, b) => b.length - a.length).map(phrasePattern).join('|')})`, 'iu');

/**
 * `with face enhance(ment)`, `without watermark`, `disable safety checker` → booleans. A field named with a
 * verb (`disable_safety_checker`, `apply_watermark`) is matched on the rest of its name, polarity included.
 */
export function toggleRule(context: RuleContext): Directive[] {
  const found: Directive[] = [];
  for (const field of context.typedFields) {
    if (field.type !== 'boolean' || hasEnum(field)) continue;
    const negated = NEGATING_PREFIX.has(identifierWords(field.name).split(' ')[0] ?? '');
    const pattern = fieldPattern(field, 'toggle', () => togglePattern(field));
    if (!pattern) continue;
    for (const match of context.text.matchAll(pattern)) {
      const verb = identifierWords(match[1] ?? '');
      const on = ON_WORDS.includes(verb);
      const value = on !== negated;
      const end = match.index + match[0].length;
      found.push(makeDirective(context.text, match.index, end, 'loose', 'toggle', [{ field: field.name, value, fit: 'ok' }]));
    }
    // `watermark off`, `safety checker on`: the switch after the name, in a clause of its own.
    const postfix = fieldPattern(field, 'toggle-after', () => postfixTogglePattern(field));
    for (const match of postfix ? context.text.matchAll(postfix) : []) {
      const value = POSTFIX_ON.has((match[2] ?? '').toLowerCase()) !== negated;
      const toggle = makeDirective(context.text, match.index, match.index + match[0].length, 'loose', 'toggle', [{ field: field.name, value, fit: 'ok' }]);
      // `with the watermark off` says what it means wherever it stands; a bare `watermark off` needs its own clause.
      found.push({ ...toggle, needsOwnClause: match[1] === undefined });
    }
  }
  return found;
}

const POSTFIX_ON: ReadonlySet<string> = new Set(['on', 'enabled']);

function postfixTogglePattern(field: FieldSpec): RegExp | null {
  const base = toggleBase(field);
  // `raw mode on`, `safety checker on`: a generic word may follow the name before the switch.
  return base === null ? null : new RegExp(`(?<![\\p{L}\\p{N}_-])(with\\s+(?:the\\s+|its\\s+)?)?${base}(?:[\\s_-]+(?:mode|option|setting|feature))?\\s*[:=]?\\s+(on|off|enabled|disabled)(?!${WORD_CHAR})`, 'giu');
}

/** The field's name without a leading verb (`disable_safety_checker` → safety checker), as a pattern. */
function toggleBase(field: FieldSpec): string | null {
  const words = identifierWords(field.name).split(' ');
  const head = words[0] ?? '';
  const base = NEGATING_PREFIX.has(head) || AFFIRMING_PREFIX.has(head) ? words.slice(1) : words;
  if (base.length === 0) return null;
  const last = escapeRegExp(base[base.length - 1] ?? '');
  return [...base.slice(0, -1).map(escapeRegExp), `${last}(?:ment|ments|ed|d|s|ing|er)?`].join('[\\s_-]+');
}

function togglePattern(field: FieldSpec): RegExp | null {
  const base = toggleBase(field);
  // Not when a switch follows (`with the watermark off`): the postfix form reads that one.
  return base === null ? null : new RegExp(`(?<![\\p{L}\\p{N}_-])${TOGGLE_VERB.source}\\s+(?:the\\s+)?${base}(?!${WORD_CHAR})(?!\\s+(?:on|off|enabled|disabled)(?!${WORD_CHAR}))`, 'giu');
}

const SCALE_NAMES = new Set(['scale', 'upscale', 'scale factor', 'upscale factor', 'upscaling factor']);
const SCALE_BEFORE =
  /(?<![\p{L}\p{N}_])(?:up)?scal(?:e|ed|ing)?(?:\s+(?:it|this|that|the|my|image|photo|picture|pic|by|to)){0,4}\s+(\d+(?:\.\d+)?)\s*x(?![\p{L}\p{N}_])/giu;
const SCALE_AFTER = /(?<![\p{L}\p{N}_.])(\d+(?:\.\d+)?)\s*x\s+(?:up)?scal(?:e|ed|ing)?(?![\p{L}\p{N}_])/giu;

/** `upscale 4x`, `2x upscale` → a field named scale / upscale(_factor). */
export function scaleRule(context: RuleContext): Directive[] {
  const field = context.typedFields.find((candidate) => SCALE_NAMES.has(identifierWords(candidate.name)) && isNumeric(candidate));
  if (!field || hasEnum(field)) return [];
  const found: Directive[] = [];
  for (const pattern of [SCALE_BEFORE, SCALE_AFTER]) {
    for (const match of context.text.matchAll(pattern)) {
      const value = Number(match[1]);
      const end = match.index + match[0].length;
      // `upscale 16x` past the maximum (or `2.5x` for a whole-number field) is kept as written: the validator
      // flags it and a person decides, rather than the model's default scale running unannounced.
      found.push(makeDirective(context.text, match.index, end, 'loose', 'scale', [{ field: field.name, value, fit: fitOf(field, value) }]));
    }
  }
  return found;
}

/** `1.2×`, `1.2x`, `x1.2`: a number written as a multiple (two capture groups, one of them set). */
const MULTIPLE = String.raw`(?:(\d+(?:[.,]\d+)?)\s*[x×]|[x×]\s*(\d+(?:[.,]\d+)?))(?![\p{L}\p{N}_])`;

/**
 * `at 1.2× speed`, `speed x0.8`: a multiple next to the name of a numeric field (`speed`, `playback rate`) sets
 * that field. The field's own name makes it a setting, so it needs no clause of its own.
 */
export function multipleRule(context: RuleContext): Directive[] {
  const found: Directive[] = [];
  for (const field of context.typedFields) {
    if (!isNumeric(field) || hasEnum(field)) continue;
    const pattern = fieldPattern(field, 'multiple', () => {
      const name = phrasePattern(identifierWords(field.name));
      return new RegExp(`(?<![\\p{L}\\p{N}_.])(?:${MULTIPLE}\\s+(?:of\\s+)?(?:the\\s+)?${name}|${name}\\s*(?:of\\s+)?${MULTIPLE})(?![\\p{L}\\p{N}_])`, 'giu');
    });
    if (!pattern) continue;
    for (const match of context.text.matchAll(pattern)) {
      const written = match.slice(1).find((group) => group !== undefined);
      if (written === undefined) continue;
      const value = Number(written.replace(',', '.'));
      found.push(makeDirective(context.text, match.index, match.index + match[0].length, 'named', 'multiple', [{ field: field.name, value, fit: fitOf(field, value) }]));
    }
  }
  return found;
}

/** A verb asking for a translation, in the reading languages (`translate`, `traduce`, `übersetze`, `翻訳して`). */
const TRANSLATE_VERB = /(?<![\p{L}])(?:translat\p{L}*|tradu[iz]\p{L}*|traduce|übersetz\p{L}*|תתרגם|תרגם|перевед\p{L}*|ترجم\p{L}*)(?![\p{L}])|翻訳|訳して/giu;

/**
 * `translate this German podcast into English` on a model with a `translate` switch turns the switch on. The
 * language it names as the target is not the source language (see targetLanguage).
 */
export function translateRule(context: RuleContext): Directive[] {
  const field = translateSwitch(context);
  if (!field) return [];
  return [...context.text.matchAll(TRANSLATE_VERB)].map((match) =>
    makeDirective(context.text, match.index, match.index + match[0].length, 'named', 'translate', [{ field: field.name, value: true, fit: 'ok' }]),
  );
}

/** The model's boolean `translate` switch, when it has one. */
export function translateSwitch(context: RuleContext): FieldSpec | undefined {
  return context.typedFields.find((candidate) => candidate.type === 'boolean' && identifierWords(candidate.name) === 'translate');
}

/** The language code a translate switch always translates into, from its description (`to English` → en). */
export function translationTarget(field: FieldSpec): string | undefined {
  return /\b(?:to|into)\s+english\b/i.test(field.description ?? '') ? 'en' : undefined;
}
