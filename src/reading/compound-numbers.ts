/**
 * Numbers written in more than one word, as each reading language builds them (words/compound-numbers.json): a ten
 * and a unit (`forty-two`, `twenty five`, `cuarenta y dos`, `quarante-deux`, `vingt et un`, `zweiundvierzig`,
 * `quarenta e dois`, `сорок два`, `ארבעים ושתיים`, `اثنان وأربعون`), Japanese digits with 十, 百, 千 (`四十二`,
 * `百二十`), and the single number words the plain lists leave out (`seventeen`, `achtzig`). Built from the
 * parts, not listed whole, so every ten and unit of a language combine. Deterministic: the same words, the same
 * number.
 */
import { readFileSync } from 'node:fs';
import { fromPackageRoot } from '../util/package-root.ts';
import { escapeRegExp } from './patterns.ts';
import { foldWord } from './words.ts';

interface SpacedLanguage {
  words: Record<string, number>;
  tens: Record<string, number>;
  units: Record<string, number>;
  joins: string[];
  unitsFirst: boolean;
}

interface KanjiNumbers {
  digits: Record<string, number>;
  scales: Record<string, number>;
}

interface CompoundFile {
  languages: Record<string, SpacedLanguage | KanjiNumbers>;
}

interface Compounds {
  /** Single words (and a ten alone): word → number. */
  words: ReadonlyMap<string, number>;
  /** Per spaced language: the whole compound as regex source, and an anchored reader of a folded compound. */
  spaced: readonly { source: string; read: RegExp; tens: ReadonlyMap<string, number>; units: ReadonlyMap<string, number> }[];
  kanji: { source: string; digits: ReadonlyMap<string, number>; scales: ReadonlyMap<string, number> } | undefined;
}

let loaded: Compounds | undefined;

function compounds(): Compounds {
  loaded ??= load();
  return loaded;
}

const WORD_START = '(?<![\\p{L}\\p{N}_])';
const WORD_END = '(?![\\p{L}\\p{N}_])';

function load(): Compounds {
  const file = fromPackageRoot('src', 'reading', 'words', 'compound-numbers.json');
  const raw = JSON.parse(readFileSync(file, 'utf8')) as CompoundFile;
  const words = new Map<string, number>();
  const spaced: Compounds['spaced'][number][] = [];
  let kanji: Compounds['kanji'];
  for (const language of Object.values(raw.languages)) {
    if ('digits' in language) {
      kanji = kanjiNumbers(language);
      continue;
    }
    const tens = foldedMap(language.tens);
    const units = foldedMap(language.units);
    for (const [word, value] of [...foldedMap(language.words), ...tens]) words.set(word, value);
    const parts = language.unitsFirst ? [units, tens] : [tens, units];
    const body = (named: boolean) => {
      const [first, second] = parts.map((map, index) => group([...(map ?? new Map()).keys()], named ? (index === 0 ? 'a' : 'b') : undefined));
      return `${first}${group(language.joins)}${second}`;
    };
    spaced.push({ source: `${WORD_START}${body(false)}${WORD_END}`, read: new RegExp(`^${body(true)}$`, 'u'), tens, units });
  }
  return { words, spaced, kanji };
}

function foldedMap(record: Record<string, number>): Map<string, number> {
  return new Map(Object.entries(record).map(([word, value]) => [foldWord(word), value]));
}

/** Alternatives, longest first (`quatre-vingt` before `quatre`, `dix-neuf` before `dix`); a space is any run of spaces. */
function group(words: readonly string[], name?: string): string {
  const sorted = [...new Set(words)].sort((a, b) => b.length - a.length);
  return `(${name === undefined ? '?:' : `?<${name}>`}${sorted.map((word) => escapeRegExp(word).replace(/ /g, '\\s+')).join('|')})`;
}

function kanjiNumbers(language: KanjiNumbers): Compounds['kanji'] {
  const digits = new Map(Object.entries(language.digits));
  const scales = new Map(Object.entries(language.scales));
  const digit = `[${[...digits.keys()].join('')}]`;
  const scale = `[${[...scales.keys()].join('')}]`;
  // Two characters at least: a single 十 or 一 is in the plain lists, and a lone 千 is a name's (千葉) more often.
  const source = `(?=[${[...digits.keys(), ...scales.keys()].join('')}]{2})(?:${digit}?${scale})+${digit}?`;
  return { source, digits, scales };
}

/** Every compound number as regex source (no capturing groups); try it before the single words. */
export function compoundNumberSource(): string {
  const { spaced, kanji } = compounds();
  return [...spaced.map((language) => language.source), ...(kanji ? [kanji.source] : [])].join('|');
}

/** The single number words the plain lists leave out (`seventeen`, `achtzig`), with a ten said alone. */
export function extraNumberWords(): ReadonlyMap<string, number> {
  return compounds().words;
}

/** The number a compound means (`forty-two` → 42, `四十二` → 42), given folded; undefined when it is none. */
export function parseCompoundNumber(folded: string): number | undefined {
  const { words, spaced, kanji } = compounds();
  const word = words.get(folded);
  if (word !== undefined) return word;
  for (const language of spaced) {
    const match = language.read.exec(folded);
    if (!match?.groups) continue;
    const a = match.groups.a ?? '';
    const b = match.groups.b ?? '';
    const value = (language.tens.get(a) ?? language.units.get(a) ?? NaN) + (language.tens.get(b) ?? language.units.get(b) ?? NaN);
    if (Number.isFinite(value)) return value;
  }
  return kanji ? kanjiValue(folded, kanji) : undefined;
}

/** `四十二` → 42, `百二十` → 120, `三千` → 3000: each scale once, largest first; a digit before a scale multiplies it. */
function kanjiValue(written: string, kanji: NonNullable<Compounds['kanji']>): number | undefined {
  if (written.length < 2) return undefined;
  let total = 0;
  let pending: number | undefined;
  let lastScale = Infinity;
  for (const char of written) {
    const digit = kanji.digits.get(char);
    if (digit !== undefined) {
      if (pending !== undefined) return undefined;
      pending = digit;
      continue;
    }
    const scale = kanji.scales.get(char);
    if (scale === undefined || scale >= lastScale) return undefined;
    total += (pending ?? 1) * scale;
    pending = undefined;
    lastScale = scale;
  }
  return total + (pending ?? 0);
}
