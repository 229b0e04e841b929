/**
 * A request that opens by casting the model in a role (`Act as a sommelier. Recommend a wine…`, `Eres un pirata
 * que habla en rima. ¿Qué es el mar?`, `ソムリエとして振る舞ってください。…`): the role's sentence is what a system
 * prompt holds, and what follows it is the request. Only the opening sentence counts, only when words follow it,
 * and only with a phrase that casts a role (words/persona.json); the caller decides whether the model has a
 * system prompt to take it. Pure.
 */
import { readFileSync } from 'node:fs';
import { fromPackageRoot } from '../util/package-root.ts';
import { escapeRegExp } from '../reading/patterns.ts';

interface WordFile {
  leads: Record<string, string[]>;
  trails: Record<string, string[]>;
  pronouns: Record<string, string[]>;
}

let patterns: { lead: RegExp; trail: RegExp; statement: RegExp } | undefined;

function load(): { lead: RegExp; trail: RegExp; statement: RegExp } {
  // From the package root: the list is data beside these sources, read the same from src/ and dist/src/.
  const raw = JSON.parse(readFileSync(fromPackageRoot('src', 'builders', 'words', 'persona.json'), 'utf8')) as WordFile;
  const alternation = (lists: Record<string, string[]>) =>
    [...new Set(Object.values(lists).flat())]
      .sort((a, b) => b.length - a.length)
      .map((phrase) => phrase.split(/\s+/).map(escapeRegExp).join('\\s+'))
      .join('|');
  return {
    // A lead ends at a word's end, unless it ends with a letter written onto the next word (Arabic `ك`, Hebrew `כ`).
    lead: new RegExp(`^\\s*(?:${alternation(raw.leads)})(?:(?<=[\\u05DB\\u0643\\u0640])|(?![\\p{L}\\p{N}_]))`, 'iu'),
    trail: new RegExp(`(?:${alternation(raw.trails)})`, 'u'),
    // A pronoun where no article marks the role: the statement must name it in two words or more (four characters
    // in a script without spaces) and end there, so a one-word compliment (`Ты молодец.`) casts nothing.
    statement: new RegExp(
      `^\\s*(?:${alternation(raw.pronouns)})(?:\\s+[\\p{L}\\p{M}\\p{N}'-]+){2,}\\s*[.!。！]$|^\\s*(?:${alternation(raw.pronouns)})\\s*[^\\s、。]{4,}(?:です|だ)[。.]$`,
      'iu',
    ),
  };
}

/** The end of the text's first sentence, its stop included; the text's length when it has no end. */
function firstSentenceEnd(text: string): number {
  const stop = /[.!?](?=\s|$)|[。！？]|\n/u.exec(text);
  return stop ? stop.index + stop[0].length : text.length;
}

/** The opening sentence that casts the model in a role, as a span of `text`; undefined when there is none. */
export function findPersona(text: string): { start: number; end: number } | undefined {
  patterns ??= load();
  const end = firstSentenceEnd(text);
  const sentence = text.slice(0, end);
  // A question (`You are a robot?`) asks; it casts nothing.
  if (/[?？][.!?！？]*\s*$/u.test(sentence)) return undefined;
  if (!patterns.lead.test(sentence) && !patterns.trail.test(sentence) && !patterns.statement.test(sentence)) return undefined;
  // The role alone is no request: with nothing after it, the words stay the request.
  if (!/[\p{L}\p{N}]/u.test(text.slice(end))) return undefined;
  const start = text.length - text.trimStart().length;
  return { start, end };
}
