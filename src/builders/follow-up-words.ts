/**
 * Reads a later conversation turn the way a person does: `make it 2:3 and seed 99`, once its settings are taken
 * out, says nothing about the picture (it only points back and asks for a change), while `now a calm sunny day
 * instead` adds to the earlier subject. The words are data (words/follow-up.json), per language; a turn's
 * language is not known, so every language's words count.
 */
import { readFileSync } from 'node:fs';
import { fromPackageRoot } from '../util/package-root.ts';
import { isFillerOnly } from './clause-words.ts';

interface WordSets {
  refer: ReadonlySet<string>;
  filler: ReadonlySet<string>;
  /** Words of languages written without spaces, longest first: removed as substrings. */
  unspacedRefer: readonly string[];
  unspacedAll: readonly string[];
}

interface WordFile {
  spaced: Record<string, { refer: string[]; filler: string[] }>;
  unspaced: Record<string, { refer: string[]; filler: string[] }>;
}

let loaded: WordSets | undefined;

function words(): WordSets {
  loaded ??= load();
  return loaded;
}

function load(): WordSets {
  // From the package root: the list is data beside these sources, read the same from src/ and dist/src/.
  const file = fromPackageRoot('src', 'builders', 'words', 'follow-up.json');
  const raw = JSON.parse(readFileSync(file, 'utf8')) as WordFile;
  const spaced = Object.values(raw.spaced);
  const unspaced = Object.values(raw.unspaced);
  const lower = (list: readonly string[]) => list.map((word) => word.toLowerCase());
  const longestFirst = (list: readonly string[]) => [...new Set(list)].sort((a, b) => b.length - a.length);
  const refer = new Set(spaced.flatMap((entry) => lower(entry.refer)));
  return {
    refer,
    filler: new Set([...refer, ...spaced.flatMap((entry) => lower(entry.filler))]),
    unspacedRefer: longestFirst(unspaced.flatMap((entry) => entry.refer)),
    unspacedAll: longestFirst(unspaced.flatMap((entry) => [...entry.refer, ...entry.filler])),
  };
}

/** Prefixes Hebrew and Arabic write onto the next word (`and`, `in`, `to`, `the`): `ובפורמט` is `ו` + `ב` + `פורמט`. */
const CLITIC = /^[\u05D5\u05D1\u05DC\u05D4\u05E9\u05DE\u05DB\u0648\u0628\u0644\u0641\u0643]{1,2}(?=[\p{L}]{2})/u;

function tokens(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}'’]+/gu) ?? [];
}

function inSet(token: string, set: ReadonlySet<string>): boolean {
  return set.has(token) || set.has(token.replace(CLITIC, ''));
}

function strippedOf(token: string, list: readonly string[]): string {
  let rest = token;
  for (const word of list) rest = rest.split(word).join('');
  return rest;
}

/** True when the text says nothing of its own: only follow-up and filler words (`same thing but`, `yes`, `longer please`). */
export function isFollowUpOnly(text: string): boolean {
  if (isFillerOnly(text)) return true;
  const sets = words();
  return tokens(text).every((token) => inSet(token, sets.filler) || strippedOf(token, sets.unspacedAll).match(/[\p{L}\p{N}]/u) === null);
}

/** True when the text points back at what came before (`it`, `same`, `instead`, `now`, `hazlo`, `それ`). */
export function refersBack(text: string): boolean {
  const sets = words();
  return tokens(text).some((token) => inSet(token, sets.refer) || strippedOf(token, sets.unspacedRefer) !== token);
}
