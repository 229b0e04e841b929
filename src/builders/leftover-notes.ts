/**
 * Explicit-looking phrases that no rule consumed: a `--flag`, a negative prompt, or a `seed=42` that names no
 * input of this model. The phrase stays in the prompt (it is still the user's text); each leftover becomes a note
 * for the reviewer and an `unusedRequest` entry on the candidate (prompt-directives.ts), so what was asked for
 * and is not in the payload is reported on the run under every policy instead of vanishing without a word.
 */
import { overlaps, type Directive, type RuleContext } from './directive-types.ts';
import { identifierWords, phrasePattern } from './field-vocabulary.ts';
import { findNamedValues, type NamedValue } from './partial-names.ts';
import { aloneInClause } from './reading-rule.ts';

const FLAG = /(?<![\p{L}\p{N}_-])--([\p{L}][\p{L}\p{N}_-]*)/gu;
const NEGATIVE_LABEL = /(?<![\p{L}\p{N}_-])negative[\s_-]*prompt\s*[:=]/iu;

/**
 * Setting names common across generation models. Only these count: `<name>=value` or `<name>: value` with such
 * a name is a setting, while `mood: calm` or `note: red` may be how a user describes the picture.
 */
const PARAMETER_WORDS = [
  'seed', 'steps', 'num steps', 'inference steps', 'num inference steps', 'sampling steps', 'width', 'height',
  'guidance', 'guidance scale', 'cfg', 'cfg scale', 'aspect ratio', 'num outputs', 'number of outputs',
  'number of images', 'num images', 'scheduler', 'sampler', 'output format',
];
const PARAMETER_NAMES = PARAMETER_WORDS.map(phrasePattern).join('|');
const PARAMETER_ASSIGNMENT = new RegExp(`(?<![\\p{L}\\p{N}_-])(${PARAMETER_NAMES})\\s*[=:]\\s*[^\\s,;]+`, 'giu');

/** A phrase of the request that asks for something this model cannot take, the note on it, and why. */
export interface Leftover {
  phrase: string;
  reason: string;
  note: string;
}

/**
 * One leftover each: unknown `--flags`, an unplaceable negative prompt, settings naming no input, and a setting
 * name with its value (`quality 90`, `100 epochs`) that nothing placed.
 */
export function findLeftovers(text: string, accepted: readonly Directive[], context: RuleContext): Leftover[] {
  const named = [...flagLeftovers(text, accepted, context), ...negativePromptLeftovers(text, context), ...unknownSettingLeftovers(text, accepted, context)];
  const reported = named.map(({ phrase }) => phrase);
  return [...named, ...namedValueLeftovers(text, accepted, context).filter((leftover) => !reported.some((phrase) => phrase.includes(leftover.phrase) || leftover.phrase.includes(phrase)))];
}

/**
 * `quality 90`, `noise level 25`, `100 epochs` alone in a clause that no rule placed: a setting asked for by
 * its name. Reported whether the model has no such input, several it could be, or one the value does not fit.
 */
function namedValueLeftovers(text: string, accepted: readonly Directive[], context: RuleContext): Leftover[] {
  const found: Leftover[] = [];
  for (const named of findNamedValues(text, context.typedFields)) {
    if (accepted.some((taken) => overlaps(taken, named)) || !(named.assigned || aloneInClause(text, named, accepted))) continue;
    // `--seed=42` is noted once, as a flag.
    if (text.slice(Math.max(0, named.start - 2), named.start) === '--') continue;
    const reason = namedValueReason(named);
    found.push({ phrase: named.phrase, reason, note: `"${named.phrase}" was not placed: ${reason}; left in the prompt` });
  }
  return found;
}

function namedValueReason(named: NamedValue): string {
  const [field, ...others] = named.fields;
  if (field === undefined) return 'it names no input of this model';
  if (others.length > 0) return `it could name ${named.fields.map(({ name }) => name).join(' or ')}`;
  if (named.value === undefined) return `it is not a value ${field.name} takes`;
  return named.value.fit === 'not_an_option' ? `it is not one of the ${field.name} options` : `it is outside the ${field.name} range`;
}

function flagLeftovers(text: string, accepted: readonly Directive[], context: RuleContext): Leftover[] {
  const found: Leftover[] = [];
  for (const match of text.matchAll(FLAG)) {
    const span = { start: match.index, end: match.index + match[0].length };
    if (accepted.some((taken) => overlaps(taken, span)) || context.isKnownName(identifierWords(match[1] ?? ''))) continue;
    found.push({ phrase: match[0], reason: 'it matches no input of this model', note: `"${match[0]}" matches no input of this model; left in the prompt` });
  }
  return found;
}

function negativePromptLeftovers(text: string, context: RuleContext): Leftover[] {
  const label = NEGATIVE_LABEL.exec(text);
  if (!label || context.primary.has('negative_prompt')) return [];
  return [{ phrase: label[0], reason: 'the model takes no negative prompt', note: 'the prompt has a negative prompt but the model takes none; left in the prompt' }];
}

/**
 * `a castle, seed=42` for a model without a seed. A name the model does have is left to the other notes (a value
 * of the wrong type is refused with its own note), so each phrase is explained once.
 */
function unknownSettingLeftovers(text: string, accepted: readonly Directive[], context: RuleContext): Leftover[] {
  const phrases = new Set<string>();
  for (const match of text.matchAll(PARAMETER_ASSIGNMENT)) {
    const span = { start: match.index, end: match.index + match[0].length };
    if (accepted.some((taken) => overlaps(taken, span)) || context.isKnownName(identifierWords(match[1] ?? ''))) continue;
    phrases.add(match[0]);
  }
  return [...phrases].map((phrase) => ({ phrase, reason: 'it names no input of this model', note: `"${phrase}" names no input of this model; left in the prompt` }));
}
