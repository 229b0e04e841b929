/**
 * Explicit-looking phrases that no rule consumed: a `--flag`, a negative prompt, or a `seed=42` that names no
 * input of this model. The phrase stays in the prompt (it is still the user's text); each leftover becomes a note
 * for the reviewer and an `unusedRequest` entry on the candidate (prompt-directives.ts), so what was asked for
 * and is not in the payload is reported on the run under every policy instead of vanishing without a word.
 */
import { overlaps, type Directive, type RuleContext } from './directive-types.ts';
import { identifierWords, phrasePattern } from './field-vocabulary.ts';

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

/** One leftover each: unknown `--flags`, an unplaceable negative prompt, and settings naming no input. */
export function findLeftovers(text: string, accepted: readonly Directive[], context: RuleContext): Leftover[] {
  return [...flagLeftovers(text, accepted, context), ...negativePromptLeftovers(text, context), ...unknownSettingLeftovers(text, accepted, context)];
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
