/**
 * Notes on explicit-looking phrases that no rule consumed: a `--flag`, a negative prompt, or a `seed=42` that
 * names no input of this model. The phrase stays in the prompt (it is still the user's text) and the note
 * tells the reviewer that what was asked for is not in the payload, instead of it vanishing without a word.
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

/** One note per leftover: unknown `--flags`, an unplaceable negative prompt, and settings naming no input. */
export function leftoverNotes(text: string, accepted: readonly Directive[], context: RuleContext): string[] {
  return [...flagNotes(text, accepted, context), ...negativePromptNotes(text, context), ...unknownSettingNotes(text, accepted, context)];
}

function flagNotes(text: string, accepted: readonly Directive[], context: RuleContext): string[] {
  const notes: string[] = [];
  for (const match of text.matchAll(FLAG)) {
    const span = { start: match.index, end: match.index + match[0].length };
    if (accepted.some((taken) => overlaps(taken, span)) || context.isKnownName(identifierWords(match[1] ?? ''))) continue;
    notes.push(`"${match[0]}" matches no input of this model; left in the prompt`);
  }
  return notes;
}

function negativePromptNotes(text: string, context: RuleContext): string[] {
  if (!NEGATIVE_LABEL.test(text) || context.primary.has('negative_prompt')) return [];
  return ['the prompt has a negative prompt but the model takes none; left in the prompt'];
}

/**
 * `a castle, seed=42` for a model without a seed. A name the model does have is left to the other notes (a value
 * of the wrong type is refused with its own note), so each phrase is explained once.
 */
function unknownSettingNotes(text: string, accepted: readonly Directive[], context: RuleContext): string[] {
  const phrases = new Set<string>();
  for (const match of text.matchAll(PARAMETER_ASSIGNMENT)) {
    const span = { start: match.index, end: match.index + match[0].length };
    if (accepted.some((taken) => overlaps(taken, span)) || context.isKnownName(identifierWords(match[1] ?? ''))) continue;
    phrases.add(match[0]);
  }
  return [...phrases].map((phrase) => `"${phrase}" names no input of this model; left in the prompt`);
}
