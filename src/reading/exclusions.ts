/**
 * What the request says must not be in what is made (`nothing blurry or deformed`, `no text`, `sin nada borroso`,
 * `bitte nichts Verschwommenes und keine Verzerrungen`, `без размытия и искажений`, `ぼやけや歪みはなしで`), and the
 * input that takes such words (a negative prompt, found by its role or by what its name and description say).
 *
 * Where the line is: a negation heading a clause of its own (after a clause break, or after `but`) is about the
 * whole picture, a directive; a negation inside a clause qualifies a word of the description and is content (`a
 * dog with no collar`, `a world without war`). A clause is no exclusion when it opens the text (`No Country for Old
 * Men, a poster`: a title, or a reply's `no, …`), when it is text to show (`a sign that says NO PARKING`) or written
 * as a title (`a street sign, No Parking`), when a number follows the negation (`no more than 4 images` is a limit)
 * or a word that makes it something else (`nothing but the vocals`, `no one`).
 */
import { readFileSync } from 'node:fs';
import type { FieldSpec } from '../generated/contracts.ts';
import { fromPackageRoot } from '../util/package-root.ts';
import { fillerWords, shownTextSpans, webAddressSpans } from './find.ts';
import { hasOptions, nameWords } from './fields.ts';
import { anyWord } from './patterns.ts';
import { foldWord, READING_LANGUAGES, readingWords, type ReadingLanguage } from './words.ts';

/** A clause that leaves things out: its span (lead-in words included) and the things, as the user wrote them. */
export interface Exclusion {
  start: number;
  end: number;
  phrase: string;
  items: string[];
}

interface ExclusionFile {
  leads: Record<string, string[]>;
  trails: Record<string, string[]>;
  joins: Record<string, string[]>;
  contrasts: Record<string, string[]>;
  stops: Record<string, string[]>;
}

interface ExclusionPatterns {
  /** A lead at a position (sticky). */
  lead: RegExp;
  /** Per language: its leads, and the words that read as that language (filler, joins, contrasts). */
  languages: readonly { leads: ReadonlySet<string>; words: ReadonlySet<string> }[];
  /** A trail ending the clause, after an optional particle. */
  trail: RegExp;
  /** Where one thing left out ends and the next begins: a join, a lead, or both. */
  split: RegExp;
  contrast: RegExp;
  stops: ReadonlySet<string>;
}

let patterns: ExclusionPatterns | undefined;

function exclusionPatterns(): ExclusionPatterns {
  if (patterns) return patterns;
  const raw = JSON.parse(readFileSync(fromPackageRoot('src', 'reading', 'words', 'exclusions.json'), 'utf8')) as ExclusionFile;
  const merged = (lists: Record<string, string[]>) => [...new Set(Object.values(lists).flat().map(foldWord))];
  const leadWords = merged(raw.leads);
  const leads = anyWord(leadWords);
  const joins = anyWord(merged(raw.joins));
  // `ובלי`, `وبدون`: Hebrew and Arabic write the `and` onto the next lead, which then splits two things by itself.
  const joinedLeads = anyWord(leadWords.filter((word) => /^[\u05D5\u0648]/u.test(word)));
  const words = (language: ReadingLanguage, file: Record<string, string[]>) => (file[language] ?? []).map(foldWord);
  patterns = {
    lead: new RegExp(leads, 'iuy'),
    languages: READING_LANGUAGES.map((language) => ({
      leads: new Set(words(language, raw.leads)),
      words: new Set([...readingWords().byLanguage[language].filler, ...words(language, raw.joins), ...words(language, raw.contrasts)].flatMap((word) => foldWord(word).split(' '))),
    })),
    trail: new RegExp(`(?:[はをがも]\\s*)?${anyWord(merged(raw.trails))}\\s*$`, 'u'),
    split: new RegExp(`${joins}(?:\\s+${leads})?|${joinedLeads}`, 'giu'),
    contrast: new RegExp(anyWord(merged(raw.contrasts)), 'giu'),
    stops: new Set(merged(raw.stops)),
  };
  return patterns;
}

const CLAUSE_BREAK = /[,;|\n()。、，；،؛]|[.!?](?=\s|$)/gu;
const SENTENCE_END = /[.!?。\n]/u;
const WORD = /[\p{L}\p{N}'’-]+/uy;

/**
 * Every clause of the text that leaves things out, in text order. In a later turn of a conversation the first
 * clause counts too (`and no cars`, `no text please`): it adds to what was asked, it is not the subject's opening.
 */
export function findExclusions(text: string, laterTurn = false): Exclusion[] {
  const shown = [...shownTextSpans(text), ...webAddressSpans(text)];
  const found: Exclusion[] = [];
  for (const clause of clausesOf(text)) {
    const opens = clause.index > 0 || laterTurn;
    const exclusion = (opens ? ledAt(text, clause.from, clause.to, clause.afterSentence) ?? trailedIn(text, clause.from, clause.to) : undefined) ?? afterContrast(text, clause.from, clause.to);
    if (!exclusion || shown.some((span) => span.start < exclusion.end && exclusion.start < span.end)) continue;
    found.push(exclusion);
  }
  return found;
}

interface Clause {
  index: number;
  from: number;
  to: number;
  /** The clause opens a sentence (a capital there is no title's). */
  afterSentence: boolean;
}

function clausesOf(text: string): Clause[] {
  const clauses: Clause[] = [];
  let from = 0;
  let afterSentence = true;
  for (const match of [...text.matchAll(CLAUSE_BREAK), null]) {
    const to = match ? match.index : text.length;
    if (text.slice(from, to).trim() !== '') clauses.push({ index: clauses.length, from, to, afterSentence });
    if (match) {
      from = to + match[0].length;
      afterSentence = SENTENCE_END.test(match[0]);
    }
  }
  return clauses;
}

/** `but nothing blurry`: a contrast word opens a clause inside the sentence; the span takes the contrast word too. */
function afterContrast(text: string, from: number, to: number): Exclusion | undefined {
  const { contrast } = exclusionPatterns();
  for (const match of text.slice(from, to).matchAll(contrast)) {
    const exclusion = ledAt(text, from + match.index + match[0].length, to, false);
    if (exclusion) return { ...exclusion, start: from + match.index, phrase: text.slice(from + match.index, exclusion.end).trim() };
  }
  return undefined;
}

/** A lead at the head of the clause, after filler words only (`and`, `please`, `bitte`), then what it leaves out. */
function ledAt(text: string, from: number, to: number, afterSentence: boolean): Exclusion | undefined {
  const { lead } = exclusionPatterns();
  const filler = fillerWords();
  let at = skipSpaces(text, from);
  const start = at;
  for (;;) {
    lead.lastIndex = at;
    const match = lead.exec(text);
    if (match && at + match[0].length <= to && leadsHere(match[0], text)) return excluded(text, start, at, at + match[0].length, to, afterSentence);
    WORD.lastIndex = at;
    const word = WORD.exec(text)?.[0];
    if (word === undefined || at + word.length > to || !filler.has(word.toLowerCase())) return undefined;
    at = skipSpaces(text, at + word.length);
  }
}

/**
 * A lead that is a small word of another language (`no`: in Portuguese, `in the`) leads only when the text reads
 * at least as much as a language that has it as a lead: `a beach, no people` but not `um cachorro, no parque`.
 */
function leadsHere(lead: string, text: string): boolean {
  const folded = foldWord(lead);
  const languages = exclusionPatterns().languages;
  if (!languages.some((language) => language.words.has(folded) && !language.leads.has(folded))) return true;
  const written = (text.toLowerCase().match(/[\p{L}']+/gu) ?? []).filter((word) => word !== folded);
  const score = (language: { words: ReadonlySet<string> }) => written.filter((word) => language.words.has(word)).length;
  const best = (leading: boolean) => Math.max(0, ...languages.filter((language) => language.leads.has(folded) === leading && (leading || language.words.has(folded))).map(score));
  return best(true) >= best(false);
}

/** `ぼやけや歪みはなしで`: the things first, then a word saying they are not wanted, ending the clause. */
function trailedIn(text: string, from: number, to: number): Exclusion | undefined {
  const clause = text.slice(from, to);
  const match = exclusionPatterns().trail.exec(clause);
  if (!match) return undefined;
  const start = skipSpaces(text, from);
  const content = text.slice(start, from + match.index).trim();
  if (!isThings(content)) return undefined;
  const end = from + clause.trimEnd().length;
  return { start, end, phrase: text.slice(start, end), items: [content] };
}

function excluded(text: string, start: number, leadStart: number, leadEnd: number, to: number, afterSentence: boolean): Exclusion | undefined {
  const content = text.slice(leadEnd, to);
  const first = /[\p{L}\p{N}']+/u.exec(content)?.[0];
  if (first === undefined || exclusionPatterns().stops.has(first.toLowerCase()) || !isThings(content)) return undefined;
  if (!afterSentence && isTitle(text.slice(leadStart, leadEnd), content)) return undefined;
  const items = itemsOf(content);
  if (items.length === 0) return undefined;
  const end = to - (text.slice(leadEnd, to).length - text.slice(leadEnd, to).trimEnd().length);
  return { start, end, phrase: text.slice(start, end), items };
}

/** Words for things: something besides filler, and no number (`no more than 4`, `sin 3 personas` is a count). */
function isThings(content: string): boolean {
  if (/\p{N}/u.test(content)) return false;
  const filler = fillerWords();
  return (content.toLowerCase().match(/[\p{L}']+/gu) ?? []).some((word) => !filler.has(word));
}

/** `No Parking`, `NO ENTRY`: a capitalised lead before capitalised words, not opening a sentence, is a name or a sign. */
function isTitle(lead: string, content: string): boolean {
  if (!/^\p{Lu}/u.test(lead)) return false;
  const cased = (content.match(/[\p{L}']+/gu) ?? []).filter((word) => /[\p{Lu}\p{Ll}]/u.test(word));
  return cased.length > 0 && cased.every((word) => /^\p{Lu}/u.test(word));
}

/** `blurry or deformed`, `Verschwommenes und keine Verzerrungen` → each thing, without the words around it. */
function itemsOf(content: string): string[] {
  const filler = fillerWords();
  return content
    .split(exclusionPatterns().split)
    .map((part) => trimFiller(part, filler))
    .filter((part) => part !== '');
}

const EDGE_WORD_START = /^[\s,;:.!?]*([\p{L}']+)(?![\p{L}\p{N}])/u;
const EDGE_WORD_END = /(?<![\p{L}\p{N}])([\p{L}']+)[\s,;:.!?]*$/u;

/** Filler at either end goes (`text please`, `a hat`); the words between stay as written. */
function trimFiller(part: string, filler: ReadonlySet<string>): string {
  let kept = part.trim();
  for (let guard = 0; guard < 8; guard += 1) {
    const head = EDGE_WORD_START.exec(kept);
    if (head?.[1] && filler.has(head[1].toLowerCase()) && head[0].length < kept.length) {
      kept = kept.slice(head[0].length).trim();
      continue;
    }
    const tail = EDGE_WORD_END.exec(kept);
    if (tail?.[1] && filler.has(tail[1].toLowerCase()) && tail.index > 0) {
      kept = kept.slice(0, tail.index).trim();
      continue;
    }
    break;
  }
  kept = kept.replace(/^[\s,;:.!?]+|[\s,;:.!?]+$/gu, '');
  return filler.has(kept.toLowerCase()) ? '' : kept;
}

function skipSpaces(text: string, at: number): number {
  let position = at;
  while (position < text.length && /\s/u.test(text[position] ?? '')) position += 1;
  return position;
}

/** Words in a free-text input's name or description that say it holds what to leave out. */
const EXCLUSION_NAME_WORDS: ReadonlySet<string> = new Set(['negative', 'avoid', 'exclude', 'exclusion', 'exclusions', 'unwanted', 'undesired']);
const EXCLUSION_DESCRIPTION =
  /\b(?:negative prompt|what (?:not to|to avoid|to exclude|you (?:do not|don't) want)|(?:things|elements|concepts|content|objects|features) (?:to avoid|to exclude|you (?:do not|don't) want|that should not appear)|(?:undesired|unwanted) (?:content|elements|features|concepts|objects)|should not (?:appear|be (?:in|present)))\b/i;

/**
 * The input that takes what to leave out: the primary negative-prompt field when the schema has one, else the one
 * free-text input whose name or description says it holds what to avoid. Undefined when there is none (or two).
 */
export function exclusionField(fields: readonly FieldSpec[], primary?: FieldSpec): FieldSpec | undefined {
  const free = (field: FieldSpec) => field.type === 'string' && !hasOptions(field) && field.format === undefined;
  if (primary && free(primary)) return primary;
  const described = fields.filter(
    (field) => free(field) && field.role !== 'prompt' && (nameWords(field.name).some((word) => EXCLUSION_NAME_WORDS.has(word)) || EXCLUSION_DESCRIPTION.test(field.description ?? '')),
  );
  return described.length === 1 ? described[0] : undefined;
}
