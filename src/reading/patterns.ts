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
  const shared: string[] = [];
  for (const [open, group] of boundaryGroups(bounded)) shared.push(`${open}(?:${group.map(phraseBody).join('|')})(?![\\p{L}\\p{N}_])`);
  return `(?:${[...shared, ...others].join('|')})`;
}

const WORD_START = '(?<![\\p{L}\\p{N}_])';

/**
 * Hebrew and Arabic write a conjunction, a preposition or the article as part of the next word (`ובפורמט`: and in
 * format; `بصيغة`: in format; `الواقعي`: the realistic). A word of those scripts of three letters or more may stand
 * right after such prefixes; the match is the word itself, so the lists keep one form and the readers look the
 * word up as written in the list (find.ts widens the phrase to the whole written word).
 */
export const CLITIC_PREFIX: Readonly<Record<'hebrew' | 'arabic', string>> = {
  hebrew: '[\u05D5\u05D1\u05DC\u05D4\u05DB]{1,3}-?',
  arabic: '(?:[\u0648\u0641\u0628\u0643\u0644]{1,2}(?:\u0627\u0644)?|\u0627\u0644|[\u0648\u0641\u0628\u0643]?\u0644\u0644)',
};
const HEBREW = /^[\u0590-\u05FF]/u;
const ARABIC = /^[\u0600-\u06FF]/u;

function boundaryGroups(words: readonly string[]): [string, string[]][] {
  const groups = new Map<string, string[]>();
  for (const word of words) {
    const script = word.replace(/\s/g, '').length >= 3 ? (HEBREW.test(word) ? 'hebrew' : ARABIC.test(word) ? 'arabic' : undefined) : undefined;
    const open = script === undefined ? WORD_START : `(?:${WORD_START}|(?<=${WORD_START}${CLITIC_PREFIX[script]}))`;
    groups.set(open, [...(groups.get(open) ?? []), word]);
  }
  return [...groups];
}

/** Where the written word holding position `start` begins: before the prefixes a Hebrew or Arabic word carries. */
export function writtenWordStart(text: string, start: number): number {
  // `ל-40 שניות`, `ב-4K`: a Hebrew prefix joined by a hyphen to a number or a Latin word.
  const joined = /(?<![\p{L}\p{N}_])[\u05D5\u05D1\u05DC\u05D4\u05DB]{1,3}-$/u.exec(text.slice(Math.max(0, start - 4), start));
  if (joined && /[\p{N}\p{Script=Latin}]/u.test(text[start] ?? '')) return start - joined[0].length;
  let at = start;
  while (at > 0 && start - at < 5 && /[\u0590-\u05FF\u0600-\u06FF-]/u.test(text[at - 1] ?? '')) at -= 1;
  if (at === start || !/[\u0590-\u05FF\u0600-\u06FF]/u.test(text[start] ?? '')) return start;
  const prefix = text.slice(at, start);
  const pattern = HEBREW.test(text[start] ?? '') ? CLITIC_PREFIX.hebrew : CLITIC_PREFIX.arabic;
  return new RegExp(`^(?:${pattern})$`, 'u').test(prefix) && !/[\p{L}\p{N}_]/u.test(text[at - 1] ?? '') ? at : start;
}

function phraseBody(word: string): string {
  // `don't`: the lists write the apostrophe plain, phones write it curly.
  return word.split(' ').map((part) => escapeRegExp(part).replace(/'/g, "['\u2019]")).join('\\s+');
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

/** The matches of the text last scanned, by pattern: the readers scan one text with the same patterns several times. */
let scanned: { text: string; matches: Map<RegExp, readonly RegExpExecArray[]> } = { text: '', matches: new Map() };

/**
 * Every match of a global pattern in the text, as `text.matchAll` gives them. The readers find settings in a text,
 * then the phrases no field took, with many of the same large patterns over the same text: each is run once per
 * text. Patterns are compared as objects (the cached ones), so a pattern that changes is a new one. The matches
 * are shared: callers only read them.
 */
export function allMatches(pattern: RegExp, text: string): readonly RegExpExecArray[] {
  if (scanned.text !== text) scanned = { text, matches: new Map() };
  let matches = scanned.matches.get(pattern);
  if (!matches) {
    matches = [...text.matchAll(pattern)];
    scanned.matches.set(pattern, matches);
  }
  return matches;
}
