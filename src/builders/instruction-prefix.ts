/**
 * Tells a leading instruction apart from the content it introduces, as a person reads `read this cheerfully at
 * 1.2× speed: Welcome back` or `system prompt: … Question: why …`: the lead-in says how (its settings are read by
 * the rules like any other phrase), the text after the colon is what the model takes. A lead-in is an instruction
 * when it holds a speech verb (`read`, `sprich`, `תקריא`, `読んで`) or when every word of it, once its setting
 * phrases are out, is an instruction word (words/instruction.json). Words of the lead-in that are neither are
 * reported (they asked for something no input took), never dropped in silence. Pure.
 */
import { readFileSync } from 'node:fs';
import type { UnusedRequest } from '../generated/contracts.ts';
import { fillerWords } from '../reading/index.ts';
import { fromPackageRoot } from '../util/package-root.ts';
import { overlaps, type Span } from './directive-types.ts';

/** A lead-in longer than this is a description that happens to hold a colon, not an instruction. */
const MAX_LEAD_WORDS = 16;

interface WordSets {
  speech: ReadonlySet<string>;
  instruction: ReadonlySet<string>;
  /** Words of languages written without spaces, longest first: matched as substrings. */
  unspacedSpeech: readonly string[];
  unspacedAll: readonly string[];
}

interface WordFile {
  spaced: Record<string, { speech: string[]; instruction: string[] }>;
  unspaced: Record<string, { speech: string[]; instruction: string[] }>;
}

let loaded: WordSets | undefined;

function words(): WordSets {
  loaded ??= load();
  return loaded;
}

function load(): WordSets {
  // From the package root: the list is data beside these sources, read the same from src/ and dist/src/.
  const raw = JSON.parse(readFileSync(fromPackageRoot('src', 'builders', 'words', 'instruction.json'), 'utf8')) as WordFile;
  const spaced = Object.values(raw.spaced);
  const unspaced = Object.values(raw.unspaced);
  const lower = (list: readonly string[]) => list.flatMap((word) => word.toLowerCase().split(' '));
  const longestFirst = (list: readonly string[]) => [...new Set(list)].sort((a, b) => b.length - a.length);
  return {
    speech: new Set(spaced.flatMap((entry) => lower(entry.speech))),
    instruction: new Set(spaced.flatMap((entry) => lower(entry.instruction))),
    unspacedSpeech: longestFirst(unspaced.flatMap((entry) => entry.speech)),
    unspacedAll: longestFirst(unspaced.flatMap((entry) => [...entry.speech, ...entry.instruction])),
  };
}

/** Prefixes Hebrew and Arabic write onto the next word (`and`, `in`, `to`, `the`): `בקול` is `ב` + `קול`. */
const CLITIC = /^[\u05D5\u05D1\u05DC\u05D4\u05E9\u05DE\u05DB\u0648\u0628\u0644\u0641\u0643]{1,2}(?=[\p{L}]{2})/u;
const COLON = /[:：]/gu;
const SENTENCE_END = /[.!?。！？](?=\s|$)/u;

/** The leading instruction found in a text: the spans the content loses, and what of it no setting took. */
export interface InstructionLead {
  /** From the start of the text to the colon, inclusive; or all but the inside of the quote that is said. */
  spans: Span[];
  /** The lead-in's words that are neither settings nor instruction words, reported as unplaced. */
  unused: UnusedRequest[];
}

/**
 * The leading instruction of `text`, when there is one. `cuts` are the setting phrases already read (their words
 * count as the instruction's), `quoted` the quoted spans (a colon inside quotes is the content's).
 */
export function findInstructionLead(text: string, cuts: readonly Span[], quoted: readonly Span[]): InstructionLead | undefined {
  const colon = leadColon(text, cuts, quoted);
  if (colon === undefined || !/[\p{L}\p{N}]/u.test(text.slice(colon + 1))) return spokenQuote(text, cuts, quoted);
  const lead = blanked(text.slice(0, colon), cuts);
  // What came before the last sentence end must be setting phrases (`system prompt: … . Question:`) or words
  // that only say which file is which (`the first clip is the beat. lyrics: …`).
  const sentences = lead.split(SENTENCE_END);
  if (sentences.slice(0, -1).some((sentence) => !onlyInstructionWords(sentence))) return undefined;
  return judged(lead, text.slice(0, colon).trim(), [{ start: 0, end: colon + 1 }]);
}

/**
 * `say 'Good morning, team' in my voice, in French`: with no colon, a quote after a speech verb is the text to
 * say when every word around it is an instruction word or a setting.
 */
function spokenQuote(text: string, cuts: readonly Span[], quoted: readonly Span[]): InstructionLead | undefined {
  const quote = [...quoted].sort((a, b) => a.start - b.start)[0];
  if (quote === undefined || quote.end - quote.start < 3) return undefined;
  const around = blanked(`${text.slice(0, quote.start)}${' '.repeat(quote.end - quote.start)}${text.slice(quote.end)}`, cuts);
  const lead = around.slice(0, quote.start);
  if (!hasSpeechVerb(tokensOf(lead))) return undefined;
  const found = judged(around, `${text.slice(0, quote.start).trim()} … ${text.slice(quote.end).trim()}`, [
    { start: 0, end: quote.start + 1 },
    { start: quote.end - 1, end: text.length },
  ]);
  return found?.unused.length === 0 ? found : undefined;
}

/** An instruction when it says the text is to be spoken, or when it holds only instruction words. */
function judged(lead: string, phrase: string, spans: Span[]): InstructionLead | undefined {
  const tokens = tokensOf(lead);
  if (tokens.length > MAX_LEAD_WORDS) return undefined;
  const sets = words();
  const filler = fillerWords();
  const leftover = tokens.filter((token) => !isInstructionWord(token, sets, filler));
  if (leftover.length === 0) return { spans, unused: [] };
  if (!hasSpeechVerb(tokens)) return undefined;
  return { spans, unused: [{ phrase, reason: `the instruction before the text asks for "${leftover.join(' ')}", which no input of this model took` }] };
}

function onlyInstructionWords(text: string): boolean {
  const sets = words();
  const filler = fillerWords();
  return tokensOf(text).every((token) => isInstructionWord(token, sets, filler));
}

function tokensOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}'’]+/gu) ?? [];
}

function hasSpeechVerb(tokens: readonly string[]): boolean {
  const sets = words();
  return tokens.some((token) => inSet(token, sets.speech) || sets.unspacedSpeech.some((verb) => token.includes(verb)));
}

/** The first colon that is not a setting's (`speed: 1.2`), a ratio's or a time's (`16:9`), or inside quotes. */
function leadColon(text: string, cuts: readonly Span[], quoted: readonly Span[]): number | undefined {
  for (const match of text.matchAll(COLON)) {
    const at = match.index;
    const span = { start: at, end: at + 1 };
    if (cuts.some((cut) => overlaps(cut, span)) || quoted.some((quote) => overlaps(quote, span))) continue;
    if (/\d/.test(text[at - 1] ?? '') && /\d/.test(text[at + 1] ?? '')) continue;
    return at;
  }
  return undefined;
}

/** The text with the cut spans blanked out, positions kept. */
function blanked(text: string, cuts: readonly Span[]): string {
  const chars = text.split('');
  for (const cut of cuts) for (let i = Math.max(0, cut.start); i < Math.min(cut.end, chars.length); i += 1) chars[i] = ' ';
  return chars.join('');
}

function isInstructionWord(token: string, sets: WordSets, filler: ReadonlySet<string>): boolean {
  if (inSet(token, sets.speech) || inSet(token, sets.instruction) || inSet(token, filler)) return true;
  let rest = token;
  for (const word of sets.unspacedAll) rest = rest.split(word).join('');
  return rest !== token && !/[\p{L}\p{N}]/u.test(rest);
}

function inSet(token: string, set: ReadonlySet<string>): boolean {
  const folded = token.replace(/’/g, "'");
  return set.has(folded) || set.has(folded.replace(CLITIC, ''));
}
