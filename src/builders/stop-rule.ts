/**
 * `stop when you write END`, `stop at ###`, `hör auf, wenn du ENDE schreibst`, `ENDと書いたら止めて`: a text model's
 * stop sequence, asked for in words (words/stop.json). The mark is copied exactly as written: quoted (`"END"`,
 * `«FIN»`, `「終」`), in capitals (`END`, `КОНЕЦ`), a tag (`</s>`) or a run of symbols (`###`); a lower-case word
 * after the lead (`a bus stop at night`, `stop at nothing`) is no mark. Only at the head of a clause, and only on a
 * model with one free-text input named for stopping (`stop`, `stop_sequences`). The words stay in the prompt:
 * they also tell the model to write the mark.
 */
import { readFileSync } from 'node:fs';
import type { FieldSpec } from '../generated/contracts.ts';
import { anyWord } from '../reading/patterns.ts';
import { fromPackageRoot } from '../util/package-root.ts';
import { makeDirective, onlyFillerBefore } from './clause-words.ts';
import type { Directive, RuleContext } from './directive-types.ts';
import { identifierWords } from './field-vocabulary.ts';

interface StopWords {
  leads: Record<string, string[]>;
  trails: Record<string, string[]>;
}

/** The mark: quoted (its inside is the value), a tag, capitals with at least two letters, or symbols. */
const MARK = String.raw`(?:"(?<q1>[^"\n]{1,40})"|'(?<q2>[^'\n]{1,40})'|\u201C(?<q3>[^\u201D\n]{1,40})\u201D|\u00AB\s?(?<q4>[^\u00BB\n]{1,40}?)\s?\u00BB|\u300C(?<q5>[^\u300D\n]{1,40})\u300D|(?<bare><[^\s<>]{1,20}>|(?<![\p{Lu}\p{Ll}\p{N}_])(?=[\p{Lu}\p{N}_]*\p{Lu}[\p{Lu}\p{N}_]*\p{Lu})[\p{Lu}\p{N}_]{2,24}(?![\p{Lu}\p{Ll}\p{N}_])|[#*=~^|\\/@$%&+<>\[\]{}-]{2,12}))`;

/**
 * `write a poem and stop at ###`, `כתוב שיר ועצור…`: a request joined to the one before by `and` (in Hebrew and Arabic
 * written onto the lead) starts a clause of its own.
 */
const AND_BEFORE = /(?<![\p{L}\p{N}_])(?:and|then|y|luego|et|puis|und|dann|e|depois|и|потом|ו|ثم|و)\s+$|(?<![\p{L}\p{N}_])[\u05D5\u0648]$/iu;

let pattern: RegExp | undefined;

function stopPattern(): RegExp {
  if (pattern) return pattern;
  const raw = JSON.parse(readFileSync(fromPackageRoot('src', 'builders', 'words', 'stop.json'), 'utf8')) as StopWords;
  const leads = Object.values(raw.leads).flat();
  const trails = Object.values(raw.trails).flat();
  // No `i` flag: the capitals of the mark must be the user's. The leads are written lower-case, so a capital at
  // the head of a sentence is allowed for by their first letter.
  const lead = anyWord(leads.flatMap((word) => [word, word.charAt(0).toUpperCase() + word.slice(1)]));
  const trail = trails.length === 0 ? '(?!)' : anyWord(trails);
  pattern = new RegExp(`(?<lead>${lead})\\s*[:=]?\\s*${MARK}(?:\\s*(?<trail>${trail}))?|${MARK.replace(/\?<(q\d|bare)>/g, '?<$1t>')}\\s*(?<trail2>${trail})`, 'gu');
  return pattern;
}

/** The model's one free-text input for stop sequences, when it has exactly one. */
function stopField(context: RuleContext): FieldSpec | undefined {
  const fields = context.textFields.filter((field) => identifierWords(field.name).split(' ').includes('stop'));
  return fields.length === 1 ? fields[0] : undefined;
}

export function stopRule(context: RuleContext): Directive[] {
  const field = stopField(context);
  if (!field) return [];
  const found: Directive[] = [];
  for (const match of context.text.matchAll(stopPattern())) {
    const groups = match.groups ?? {};
    const mark = ['q1', 'q2', 'q3', 'q4', 'q5', 'bare'].map((name) => groups[name] ?? groups[`${name}t`]).find((value) => value !== undefined);
    if (mark === undefined || !(onlyFillerBefore(context.text, match.index) || AND_BEFORE.test(context.text.slice(Math.max(0, match.index - 12), match.index)))) continue;
    const directive = makeDirective(context.text, match.index, match.index + match[0].length, 'named', 'stop', [{ field: field.name, value: mark, fit: 'ok' }]);
    found.push({ ...directive, keepInPrompt: true });
  }
  return found;
}
