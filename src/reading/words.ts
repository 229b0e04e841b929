/**
 * The reading word lists, one data file per language (words/<language>.json): number words, units, aspect and
 * orientation words, negations, feature nouns, language names, and the small words that lead into a format, a
 * language or a resolution. The reader uses every language at once (a request may mix them), so the lists are
 * merged here; entries are lower-cased. Read once, on first use.
 */
import { readFileSync } from 'node:fs';
import { fromPackageRoot } from '../util/package-root.ts';

export const READING_LANGUAGES = ['en', 'es', 'fr', 'de', 'pt', 'he', 'ru', 'ar', 'ja'] as const;
export type ReadingLanguage = (typeof READING_LANGUAGES)[number];

/** The lists of one file, as written. */
export interface LanguageWords {
  numbers: Record<string, number>;
  seconds: string[];
  minutes: string[];
  /** Words after a length that add half a unit (`a minute and a half`, `דקה וחצי`, `1分半`). */
  halfTrails: string[];
  /** A length said without a separate number, in seconds → how it is written (`полминуты`, `دقيقتان`). */
  lengths: Record<string, string[]>;
  /** A number of outputs said in one word, the count → how it is written (`نسختان`, `صورتين`: the dual, two). */
  counted: Record<string, string[]>;
  frames: string[];
  images: string[];
  portrait: string[];
  landscape: string[];
  widescreen: string[];
  square: string[];
  /** Wider than widescreen (`ultra wide`, `ultra ancha`): 21:9. */
  ultrawide: string[];
  /** Words after an aspect word that make it the picture's shape (`vertical format`). */
  orientationNouns: string[];
  /** What is made (`video`, `image`): after an aspect word that is not also a genre, the shape too. */
  mediaNouns: string[];
  /** Aspect words that also name a kind of picture or a thing (`portrait`, `landscape`, `a square`). */
  aspectGenres: string[];
  /** Words that join a count to what it counts (`four images of a cat`). */
  countTrails: string[];
  negation: string[];
  affirmation: string[];
  off: string[];
  on: string[];
  /** English feature key (`audio`, `watermark`) → the words for it in this language. */
  features: Record<string, string[]>;
  /** English feature key (`faces`, `loop`) → phrases that by themselves ask for it on (`fix the faces`, `顔も補正`). */
  featureRequests: Record<string, string[]>;
  languageLeads: string[];
  languageTrails: string[];
  /** ISO 639-1 code → the language's names in this language. */
  languages: Record<string, string[]>;
  /** ISO 639-1 code → whole phrases that already say "in that language" (`בעברית`, `по-русски`). */
  languageForms: Record<string, string[]>;
  /** The words of a field's English name (`seed`, `aspect ratio`) → what people call it in this language. */
  fieldNames: Record<string, string[]>;
  formatLeads: string[];
  formatTrails: string[];
  /** Words for subtitles: beside a format, it is the subtitles' format (`subtitles srt`); alone, a request for subtitles. */
  subtitles: string[];
  resolutionLeads: string[];
  filler: string[];
  /** Words after which the rest of the clause is text to show (`a sign that reads PNG ONLY`), never a setting. */
  textLeads: string[];
  /** Words right before a setting phrase that make it what a question is about (`what does temperature 0.5 mean`). */
  questionLeads: string[];
  /** Words right before an option that pick it out of a set (`only the vocals`, `sepárame solo la batería`). */
  selectLeads: string[];
  /** Words right after an option that pick it out of a set (`ボーカルだけ`, `الغيتار فقط`). */
  selectTrails: string[];
}

export const WORD_LIST_KEYS = [
  'seconds', 'minutes', 'halfTrails', 'frames', 'images', 'portrait', 'landscape', 'widescreen', 'square', 'ultrawide', 'orientationNouns',
  'mediaNouns', 'aspectGenres', 'countTrails', 'negation', 'affirmation', 'off', 'on', 'languageLeads', 'languageTrails', 'formatLeads', 'formatTrails', 'subtitles',
  'resolutionLeads', 'filler', 'textLeads', 'questionLeads', 'selectLeads', 'selectTrails',
] as const;
export type WordListKey = (typeof WORD_LIST_KEYS)[number];
export const WORD_MAP_KEYS = ['features', 'featureRequests', 'languages', 'languageForms', 'fieldNames', 'lengths', 'counted'] as const;

/** Every language's lists merged: what the reader matches against. */
export interface ReadingWords {
  byLanguage: Readonly<Record<ReadingLanguage, LanguageWords>>;
  lists: Readonly<Record<WordListKey, readonly string[]>>;
  numbers: ReadonlyMap<string, number>;
  /** Local word → English feature key. */
  features: ReadonlyMap<string, string>;
  /** A phrase asking for a feature on → its English feature key. */
  featureRequests: ReadonlyMap<string, string>;
  /** Local language name → ISO code. */
  languages: ReadonlyMap<string, string>;
  /** Whole "in that language" phrase → ISO code. */
  languageForms: ReadonlyMap<string, string>;
  /** A field's English name words → its names in every language. */
  fieldNames: ReadonlyMap<string, readonly string[]>;
  /** A length written without a separate number → its seconds. */
  lengths: ReadonlyMap<string, number>;
  /** A number of outputs written in one word → the count. */
  counted: ReadonlyMap<string, number>;
}

let loaded: ReadingWords | undefined;

export function readingWords(): ReadingWords {
  loaded ??= merge(Object.fromEntries(READING_LANGUAGES.map((language) => [language, readLanguage(language)])) as Record<ReadingLanguage, LanguageWords>);
  return loaded;
}

/** Lower case and single spaces: how every entry and every text is compared. */
export function foldWord(word: string): string {
  return word.toLowerCase().replace(/[\u2019`]/g, "'").replace(/\s+/g, ' ').trim();
}

function merge(byLanguage: Record<ReadingLanguage, LanguageWords>): ReadingWords {
  const all = READING_LANGUAGES.map((language) => byLanguage[language]);
  const lists = Object.fromEntries(
    WORD_LIST_KEYS.map((key) => [key, [...new Set(all.flatMap((words) => words[key].map(foldWord)))]]),
  ) as Record<WordListKey, string[]>;
  const numbers = new Map<string, number>();
  const features = new Map<string, string>();
  const languages = new Map<string, string>();
  const languageForms = new Map<string, string>();
  const fieldNames = new Map<string, string[]>();
  const lengths = new Map<string, number>();
  const counted = new Map<string, number>();
  const featureRequests = new Map<string, string>();
  for (const words of all) {
    for (const [key, phrases] of Object.entries(words.featureRequests)) for (const phrase of phrases) featureRequests.set(foldWord(phrase), key);
    for (const [seconds, written] of Object.entries(words.lengths)) for (const word of written) lengths.set(foldWord(word), Number(seconds));
    for (const [count, written] of Object.entries(words.counted)) for (const word of written) counted.set(foldWord(word), Number(count));
    for (const [word, value] of Object.entries(words.numbers)) numbers.set(foldWord(word), value);
    for (const [key, local] of Object.entries(words.features)) for (const word of local) features.set(foldWord(word), key);
    for (const [code, names] of Object.entries(words.languages)) for (const name of names) languages.set(foldWord(name), code);
    for (const [code, forms] of Object.entries(words.languageForms)) for (const form of forms) languageForms.set(foldWord(form), code);
    for (const [name, local] of Object.entries(words.fieldNames)) fieldNames.set(foldWord(name), [...new Set([...(fieldNames.get(foldWord(name)) ?? []), ...local.map(foldWord)])]);
  }
  return { byLanguage, lists, numbers, features, featureRequests, languages, languageForms, fieldNames, lengths, counted };
}

function readLanguage(language: ReadingLanguage): LanguageWords {
  // From the package root: the lists are data beside these sources, read the same from src/ and dist/src/.
  const file = fromPackageRoot('src', 'reading', 'words', `${language}.json`);
  const raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const problem = wordFileProblem(raw);
  if (problem) throw new Error(`${file}: ${problem}`);
  return raw as unknown as LanguageWords;
}

/** Why a parsed word file is not a valid one, or undefined when it is (the unit test holds every file to it). */
export function wordFileProblem(raw: Record<string, unknown>): string | undefined {
  for (const key of WORD_LIST_KEYS) {
    const list = raw[key];
    if (!Array.isArray(list) || list.some((word) => typeof word !== 'string' || word.trim() === '')) return `"${key}" must be a list of words`;
  }
  const numbers = raw.numbers;
  if (!isRecord(numbers) || Object.values(numbers).some((value) => typeof value !== 'number' || !Number.isFinite(value))) return '"numbers" must map words to numbers';
  for (const key of WORD_MAP_KEYS) {
    const map = raw[key];
    if (!isRecord(map) || Object.values(map).some((list) => !Array.isArray(list) || list.some((word) => typeof word !== 'string' || word.trim() === ''))) {
      return `"${key}" must map keys to lists of words`;
    }
  }
  const known = new Set<string>(['numbers', ...WORD_LIST_KEYS, ...WORD_MAP_KEYS]);
  const stray = Object.keys(raw).find((key) => !known.has(key));
  return stray === undefined ? undefined : `unknown list "${stray}"`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
