/**
 * Options named in the user's words: a field's own option as written (`Anime`, `pixel_art`), or a word of any
 * reading language for what the option stands for (`réaliste`, `реалистичный`, `واقعي`, `リアル` → realistic).
 * The words are data, one file per language (words/options-<language>.json): an English concept (`realistic`,
 * `pixel art`, `female`, `off`) → the words people write for it. A concept names an option when the option's own
 * words hold the concept's words (`pixel art` → `digital_illustration/pixel_art`); of several such options the
 * one with the fewest other words wins (`realistic` → `realistic_image`, not `realistic_image/hdr`), and a tie
 * names none. A word of a list ending in `*` is a stem that takes an ending (`реалистичн*` for every case of the
 * adjective). Deterministic: the same words and the same field always name the same option.
 */
import { readFileSync } from 'node:fs';
import type { FieldSpec } from '../generated/contracts.ts';
import { fromPackageRoot } from '../util/package-root.ts';
import { anyWord } from './patterns.ts';
import { foldWord, READING_LANGUAGES, readingWords } from './words.ts';

/** Concept → the words for it in every language, the concept's own words first. */
let concepts: ReadonlyMap<string, readonly string[]> | undefined;

export function optionConcepts(): ReadonlyMap<string, readonly string[]> {
  concepts ??= loadConcepts();
  return concepts;
}

function loadConcepts(): ReadonlyMap<string, readonly string[]> {
  const merged = new Map<string, string[]>();
  for (const language of READING_LANGUAGES) {
    const file = fromPackageRoot('src', 'reading', 'words', `options-${language}.json`);
    const raw = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    const problem = optionFileProblem(raw);
    if (problem) throw new Error(`${file}: ${problem}`);
    for (const [concept, words] of Object.entries(raw as Record<string, string[]>)) {
      const key = foldWord(concept);
      merged.set(key, [...new Set([...(merged.get(key) ?? [key]), ...words.map(foldWord)])]);
    }
  }
  // The on/off words of the reading lists name a switch-like option too (`magic prompt aus`, `オフ`).
  const words = readingWords().lists;
  merged.set('on', [...new Set([...(merged.get('on') ?? ['on']), ...words.on])]);
  merged.set('off', [...new Set([...(merged.get('off') ?? ['off']), ...words.off])]);
  return merged;
}

/** Why a parsed option file is not a valid one, or undefined when it is. */
export function optionFileProblem(raw: unknown): string | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return 'must map concepts to lists of words';
  for (const [concept, words] of Object.entries(raw)) {
    if (concept.trim() === '' || concept !== concept.toLowerCase()) return `concept "${concept}" must be lower-case words`;
    if (!Array.isArray(words) || words.some((word) => typeof word !== 'string' || word.trim() === '' || word !== word.trim())) return `"${concept}" must be a list of words`;
    if (words.some((word: string) => /\*(?=[^\s])/.test(word) || /^\*|\s\*/.test(word))) return `"${concept}": a * ends a word's stem`;
  }
  return undefined;
}

/** The words of an option or a concept: `digital_illustration/pixel_art` → digital illustration pixel art. */
function tokensOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

function holdsRun(tokens: readonly string[], run: readonly string[]): boolean {
  for (let i = 0; i + run.length <= tokens.length; i += 1) if (run.every((token, j) => tokens[i + j] === token)) return true;
  return false;
}

/** The option the concept names for this field: its words in the option's, fewest other words; none on a tie. */
export function conceptOption(field: FieldSpec, concept: string): string | undefined {
  return bestOption(stringOptions(field).map((option) => [option, tokensOf(option)] as const), tokensOf(concept));
}

/**
 * The field's option for on or for off: the one the concept names (`Off`), else the one option written as a word
 * for it (`disabled`, `none`, `enabled`).
 */
export function switchOption(field: FieldSpec, state: 'on' | 'off'): string | undefined {
  const named = conceptOption(field, state);
  if (named !== undefined) return named;
  const words = new Set(optionConcepts().get(state) ?? []);
  const written = stringOptions(field).filter((option) => words.has(optionKey(option)));
  return written.length === 1 ? written[0] : undefined;
}

function bestOption(options: readonly (readonly [string, readonly string[]])[], run: readonly string[]): string | undefined {
  if (run.length === 0) return undefined;
  let best: { option: string; extra: number } | undefined;
  let tied = false;
  for (const [option, tokens] of options) {
    if (!holdsRun(tokens, run)) continue;
    const extra = tokens.length - run.length;
    if (!best || extra < best.extra) {
      best = { option, extra };
      tied = false;
    } else if (extra === best.extra) tied = true;
  }
  return best && !tied ? best.option : undefined;
}

export function stringOptions(field: FieldSpec): string[] {
  if (!Array.isArray(field.enum) || field.enum.length === 0 || field.type !== 'string') return [];
  return field.enum.filter((option): option is string => typeof option === 'string' && option.trim().length >= 2 && !/^\d/.test(option));
}

/** How an option is compared with what the user wrote: lower case, `_`, `-` and spaces alike. */
export function optionKey(text: string): string {
  return text.toLowerCase().replace(/[_\s-]+/g, ' ').trim();
}

/** What a word of the vocabulary names: the option, the concept it came by, and whether it is only a name inside a coded option. */
export interface NamedOption {
  option: string;
  concept?: string;
  /** `bella` for `af_bella`: a name that says which option only beside the field's name (`voice bella`). */
  part?: boolean;
}

interface Vocabulary {
  /** Every word that names an option (folded; a stem ends in `*`) → the option, with the concept it came by. */
  words: ReadonlyMap<string, NamedOption>;
  /** The first word of each (a stem without its `*`): a text holding none of them names no option. */
  heads: readonly string[];
}

const vocabularies = new Map<string, Vocabulary>();

/** The words that name the field's options: the options as written, then each concept's words. */
export function optionVocabulary(field: FieldSpec): Vocabulary {
  const options = stringOptions(field);
  const key = `${field.name}\u0000${options.join('\u0000')}`;
  let vocabulary = vocabularies.get(key);
  if (vocabulary) return vocabulary;
  const words = new Map<string, NamedOption>();
  for (const option of options) words.set(optionKey(option), { option });
  for (const [name, option] of readableNames(options)) if (!words.has(name)) words.set(name, { option, part: true });
  const ambiguous = new Set<string>();
  const tokens = options.map((option) => [option, tokensOf(option)] as const);
  const present = new Set(tokens.flatMap(([, words]) => words));
  for (const [concept, local] of optionConcepts()) {
    const run = tokensOf(concept);
    if (!run.every((word) => present.has(word))) continue;
    const option = bestOption(tokens, run);
    if (option === undefined) continue;
    for (const word of local) {
      const folded = optionKey(word);
      const known = words.get(folded);
      if (known === undefined) words.set(folded, { option, concept });
      // The same word for two options of one field (`bajo`: low and bass) names neither; an option as written wins.
      else if (known.concept !== undefined && known.option !== option) ambiguous.add(folded);
    }
  }
  for (const word of ambiguous) words.delete(word);
  if (vocabularies.size > 2000) vocabularies.clear();
  // What a text must hold for any of these words to be in it: each word's first letters (a stem's base).
  const heads = [...new Set([...words.keys()].map((word) => word.split(' ')[0]?.replace(/\*$/, '') ?? '').filter((head) => head !== ''))];
  vocabulary = { words, heads };
  vocabularies.set(key, vocabulary);
  return vocabulary;
}

/** The option the written words name for this field, and the concept they name it by (none for the option as written). */
export function optionNamed(field: FieldSpec, written: string): NamedOption | undefined {
  const key = optionKey(foldWord(written));
  const words = optionVocabulary(field).words;
  const exact = words.get(key);
  if (exact) return exact;
  for (const [word, named] of words) if (word.includes('*') && new RegExp(`^${stemSource(word)}$`, 'u').test(key)) return named;
  return undefined;
}

/**
 * The readable name inside coded options: `af_bella` → bella, `bm_lewis` → lewis, `large-v2` → large. An option
 * made of one word of three letters or more and short codes (two letters at most, or with a digit) is named by
 * that word, when no other option of the field holds it (`v2/en_speaker_6` and `v2/en_speaker_7` share theirs).
 */
export function readableNames(options: readonly string[]): Map<string, string> {
  const named = new Map<string, string[]>();
  for (const option of options) {
    const parts = option.toLowerCase().split(/[\s_./-]+/u).filter((part) => part !== '');
    const names = parts.filter((part) => /^\p{L}{3,}$/u.test(part));
    const codes = parts.filter((part) => /^\p{L}{1,2}$/u.test(part) || /\d/u.test(part));
    if (names.length !== 1 || codes.length === 0 || names.length + codes.length !== parts.length) continue;
    const name = names[0] as string;
    named.set(name, [...(named.get(name) ?? []), option]);
  }
  return new Map([...named].filter(([, holders]) => holders.length === 1).map(([name, holders]) => [name, holders[0] as string]));
}

/** How many letters an ending may have after a stem (`реалистичн` + `ое`, `realistisch` + `es`). */
const ENDING = 5;

/** A word list entry with stems (`нарисованн* от руки`) as regex source: each `*` takes an ending. */
function stemSource(entry: string): string {
  return entry
    .split(' ')
    .map((word) => (word.endsWith('*') ? `${escape(word.slice(0, -1))}\\p{L}{0,${ENDING}}` : escape(word)))
    .join('[\\s_-]+');
}

/** Regex source for any word naming one of the field's options (no groups). */
export function optionWordsSource(field: FieldSpec): string {
  const entries = [...optionVocabulary(field).words.keys()];
  const whole = entries.filter((word) => !word.includes('*'));
  const stems = entries.filter((word) => word.includes('*'));
  const wholeSource = anyWord(whole).replace(/\\s\+/g, '[\\s_-]+');
  if (stems.length === 0) return wholeSource;
  const stemmed = `(?<![\\p{L}\\p{N}_])(?:${stems.map(stemSource).join('|')})(?![\\p{L}\\p{N}_])`;
  return `(?:${wholeSource}|${stemmed})`;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** False when the text cannot name any of the field's options: none of their words is in it (a cheap test first). */
export function mayNameOption(field: FieldSpec, text: string): boolean {
  const folded = text.toLowerCase().replace(/[_-]/g, ' ');
  return optionVocabulary(field).heads.some((head) => folded.includes(head));
}
