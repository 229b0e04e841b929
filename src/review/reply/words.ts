/**
 * The fast path's word lists, one data file per language (words/<language>.json): whole replies that mean yes,
 * no, "both" and "all". Entries are normalised as replies are (normalize.ts), so a list may be written naturally.
 * Read once, on first use.
 */
import { readFileSync } from 'node:fs';
import { normalizeReply } from './normalize.ts';
import { fromPackageRoot } from '../../util/package-root.ts';

export const WORD_LANGUAGES = ['en', 'he', 'es', 'fr', 'de', 'pt', 'ru', 'ar'] as const;
export type WordLanguage = (typeof WORD_LANGUAGES)[number];

export interface WordList {
  yes: string[];
  no: string[];
  both: string[];
  all: string[];
}

export interface Words {
  byLanguage: Readonly<Record<WordLanguage, WordList>>;
  yes: ReadonlySet<string>;
  no: ReadonlySet<string>;
  both: ReadonlySet<string>;
  all: ReadonlySet<string>;
}

let loaded: Words | undefined;

/** Every language's lists, read and normalised once. */
export function replyWords(): Words {
  loaded ??= load();
  return loaded;
}

function load(): Words {
  const byLanguage = Object.fromEntries(WORD_LANGUAGES.map((language) => [language, readList(language)])) as Record<WordLanguage, WordList>;
  const union = (key: keyof WordList) => new Set(WORD_LANGUAGES.flatMap((language) => byLanguage[language][key]));
  return { byLanguage, yes: union('yes'), no: union('no'), both: union('both'), all: union('all') };
}

function readList(language: WordLanguage): WordList {
  // From the package root: the lists are data beside these sources, read the same from src/ and dist/src/.
  const file = fromPackageRoot('src', 'review', 'reply', 'words', `${language}.json`);
  const raw = JSON.parse(readFileSync(file, 'utf8')) as Partial<Record<keyof WordList, unknown>>;
  const words = (key: keyof WordList): string[] => {
    const list = raw[key];
    if (!Array.isArray(list) || list.some((word) => typeof word !== 'string')) throw new Error(`${file}: "${key}" must be a list of strings`);
    return [...new Set(list.map((word: string) => normalizeReply(word).text).filter((word) => word !== ''))];
  };
  return { yes: words('yes'), no: words('no'), both: words('both'), all: words('all') };
}
