/**
 * Numbers as people write them: digits (ASCII, Arabic-Indic `٤٢`, Persian `۴۲` or full-width `４２`; `1.5`, `1,5`
 * or `١٫٥`) or number words of any of the reading languages (`six`, `seis`, `шесть`, `六`, and compounds:
 * `forty-two`, `cuarenta y dos`, `zweiundvierzig`, `四十二`). Deterministic: the same words, the same number.
 */
import { compoundNumberSource, extraNumberWords, parseCompoundNumber } from './compound-numbers.ts';
import { anyWord } from './patterns.ts';
import { foldWord, readingWords } from './words.ts';

/** A decimal digit of a script other than ASCII the reading languages write: Arabic-Indic, Persian, full-width. */
const OTHER_DIGIT_CLASS = '\\u0660-\\u0669\\u06F0-\\u06F9\\uFF10-\\uFF19';
const OTHER_DIGITS = new RegExp(`[${OTHER_DIGIT_CLASS}]`, 'g');
/** `٫`, the Arabic decimal separator. */
const ARABIC_DECIMAL = '\u066B';

/** One digit of any of those scripts, as a regex class. */
export const DIGIT = `[0-9${OTHER_DIGIT_CLASS}]`;

/** Digits with an optional decimal part, `.`, `,` or `٫` between (no space: `1, 5` is two numbers). */
export const DIGITS = `${DIGIT}{1,6}(?:[.,${ARABIC_DECIMAL}]${DIGIT}{1,3})?`;

let numberPattern: string | undefined;

/**
 * A number written as digits or as number words, as regex source (no groups). A compound comes before the single
 * words, so `forty-two` is read whole rather than as `forty`.
 */
export function numberSource(): string {
  numberPattern ??= `(?:(?<![\\p{N}.,])${DIGITS}(?![\\p{N}])|${compoundNumberSource()}|${anyWord([...readingWords().numbers.keys(), ...extraNumberWords().keys()])})`;
  return numberPattern;
}

/** True when the text holds a digit of a script other than ASCII. */
export function hasOtherDigits(text: string): boolean {
  OTHER_DIGITS.lastIndex = 0;
  return OTHER_DIGITS.test(text);
}

/**
 * The text with every digit of another script written as its ASCII digit, and `٫` as `.`. Each is one UTF-16 unit
 * for one, so a position in the folded text is the same position in the text as written.
 */
export function foldDigits(text: string): string {
  if (!hasOtherDigits(text) && !text.includes(ARABIC_DECIMAL)) return text;
  return text.replace(OTHER_DIGITS, (digit) => String(digit.charCodeAt(0) & 0xf)).replaceAll(ARABIC_DECIMAL, '.');
}

/** The number a written number means, or undefined when it is not one. */
export function parseWrittenNumber(written: string): number | undefined {
  const folded = foldWord(written);
  const word = readingWords().numbers.get(folded) ?? parseCompoundNumber(folded);
  if (word !== undefined) return word;
  const ascii = foldDigits(folded).replace(',', '.');
  if (!/^\d+(?:\.\d+)?$/.test(ascii)) return undefined;
  return Number(ascii);
}

const DIGITS_ONLY = new RegExp(`^[0-9${OTHER_DIGIT_CLASS}.,${ARABIC_DECIMAL}]+$`);

/** True when the words are digits only (`10`, `١٠`, `１０`, `1.5`): a number written as digits, not as a word. */
export function isDigitsOnly(written: string): boolean {
  return DIGITS_ONLY.test(written);
}
