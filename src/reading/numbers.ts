/**
 * Numbers as people write them: digits (ASCII or Arabic-Indic, `1.5` or `1,5`) or a number word of any of the
 * reading languages (`six`, `seis`, `шесть`, `六`). Deterministic: the same words, the same number.
 */
import { anyWord } from './patterns.ts';
import { foldWord, readingWords } from './words.ts';

const ARABIC_INDIC = /[\u0660-\u0669\u06F0-\u06F9]/g;

/** Digits with an optional decimal part, `.` or `,` between (no space: `1, 5` is two numbers). */
export const DIGITS = '[0-9\\u0660-\\u0669\\u06F0-\\u06F9]{1,6}(?:[.,][0-9\\u0660-\\u0669\\u06F0-\\u06F9]{1,3})?';

let numberPattern: string | undefined;

/** A number written as digits or as a number word, as regex source (no groups). */
export function numberSource(): string {
  numberPattern ??= `(?:(?<![\\p{N}.,])${DIGITS}(?![\\p{N}])|${anyWord(readingWords().numbers.keys())})`;
  return numberPattern;
}

/** The number a written number means, or undefined when it is not one. */
export function parseWrittenNumber(written: string): number | undefined {
  const folded = foldWord(written);
  const word = readingWords().numbers.get(folded);
  if (word !== undefined) return word;
  const ascii = folded.replace(ARABIC_INDIC, (digit) => String(digit.charCodeAt(0) & 0xf)).replace(',', '.');
  if (!/^\d+(?:\.\d+)?$/.test(ascii)) return undefined;
  return Number(ascii);
}
