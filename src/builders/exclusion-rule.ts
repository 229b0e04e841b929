/**
 * Clauses that leave things out (`nothing blurry or deformed`, `sin nada borroso`, `без размытия`) go to the
 * model's negative prompt: the clause leaves the prompt and the things it names become the negative prompt's text,
 * in the user's words. Read after every other rule: a clause any of them placed (`no watermark` on a model with a
 * watermark switch) or that names a setting (`no audio`, reported as unplaced when nothing takes it) stays theirs.
 *
 * A model without a negative-prompt input keeps the clause in its prompt, as written: a negation there is still
 * words the model reads, and nothing the user wrote goes missing.
 */
import { exclusionField, findExclusions, findSettingPhrases, readingWords } from '../reading/index.ts';
import { overlaps, type Directive, type RuleContext, type Span } from './directive-types.ts';

/** The rule name recorded on the directive (and its provenance notes). */
export const EXCLUSION_RULE = 'exclusion';

/** Switch features that are seen in a picture: `no watermark` is a thing to leave out when no switch takes it. */
const VISIBLE_FEATURES: ReadonlySet<string> = new Set(['watermark', 'subtitles']);

/**
 * The exclusion clauses no accepted directive touches, as directives setting the negative-prompt input. `blocked`
 * are spans no clause may overlap: quoted text and web addresses; `laterTurn` says the text is a later turn of a
 * conversation (findExclusions).
 */
export function exclusionDirectives(context: RuleContext, accepted: readonly Directive[], blocked: readonly Span[], laterTurn = false): Directive[] {
  const field = exclusionField(context.textFields, context.primary.get('negative_prompt'));
  if (!field) return [];
  const exclusions = findExclusions(context.text, laterTurn);
  if (exclusions.length === 0) return [];
  const settings = findSettingPhrases(context.text).filter((phrase) => !(phrase.kind === 'negated_switch' && namesVisibleFeature(phrase.phrase)));
  return exclusions
    .filter((exclusion) => ![...accepted, ...blocked, ...settings].some((span) => overlaps(span, exclusion)))
    .map((exclusion) => ({
      start: exclusion.start,
      end: exclusion.end,
      phrase: exclusion.phrase,
      form: 'loose',
      rule: EXCLUSION_RULE,
      values: [{ field: field.name, value: exclusion.items.join(', '), fit: 'ok' }],
    }));
}

function namesVisibleFeature(phrase: string): boolean {
  const words = phrase.toLowerCase();
  return [...readingWords().features].some(([word, feature]) => VISIBLE_FEATURES.has(feature) && words.includes(word));
}
