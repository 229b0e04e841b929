/**
 * Regex pieces shared by the readers. A word of a script written with spaces (Latin, Cyrillic, Hebrew, Arabic)
 * must stand alone (`sin` is not in `sincere`); a word of a script written without them (Japanese) is matched
 * where it stands, since nothing separates it from its neighbours.
 */

const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/** The text as a literal inside a regex (unicode mode: only syntax characters are escaped). */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** One word or phrase as a pattern: any run of spaces between its words, its edges bounded where the script has spaces. */
export function wordPattern(word: string): string {
  const body = word.split(' ').map(escapeRegExp).join('\\s+');
  const first = word[0] ?? '';
  const last = word[word.length - 1] ?? '';
  const open = UNSPACED.test(first) || !/[\p{L}\p{N}]/u.test(first) ? '' : '(?<![\\p{L}\\p{N}_])';
  const close = UNSPACED.test(last) || !/[\p{L}\p{N}]/u.test(last) ? '' : '(?![\\p{L}\\p{N}_])';
  return `${open}${body}${close}`;
}

/**
 * Any of the words, longest first so `marca de agua` wins over `marca`; a non-capturing group. Words bounded on
 * both sides share one pair of boundary checks: hundreds of Unicode lookarounds, one per word, make the regex
 * slow to compile and to run.
 */
export function anyWord(words: Iterable<string>): string {
  const sorted = [...new Set(words)].filter((word) => word !== '').sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  if (sorted.length === 0) return '(?!)';
  const bounded = sorted.filter((word) => isBoundedBothSides(word));
  const others = sorted.filter((word) => !isBoundedBothSides(word)).map(wordPattern);
  const shared = bounded.length === 0 ? [] : [`(?<![\\p{L}\\p{N}_])(?:${bounded.map(phraseBody).join('|')})(?![\\p{L}\\p{N}_])`];
  return `(?:${[...shared, ...others].join('|')})`;
}

function phraseBody(word: string): string {
  return word.split(' ').map(escapeRegExp).join('\\s+');
}

function isBoundedBothSides(word: string): boolean {
  const first = word[0] ?? '';
  const last = word[word.length - 1] ?? '';
  return !UNSPACED.test(first) && !UNSPACED.test(last) && /[\p{L}\p{N}]/u.test(first) && /[\p{L}\p{N}]/u.test(last);
}

/** True for a text written in a script without spaces between words. */
export function isUnspaced(text: string): boolean {
  return UNSPACED.test(text);
}
