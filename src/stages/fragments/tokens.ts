/**
 * How text is cut into pieces, shared by the vocabulary generator (scripts/gen-common-vocabulary.ts), the
 * fragment derivation (derive.ts) and the payload check (match.ts), so the three always agree on what a
 * "word" is. Everything is lower-cased first.
 */

/** A word: a maximal run of letters and digits (`k_euler` is two words, `16:9` two numbers). */
export const WORD = /[\p{L}\p{N}]+/gu;
/** Words joined by `-`, `_` or `.` (`quokka-ferris-wheel-8812`, `img_2931`, `v1.5-beta`). */
export const COMPOUND = /[\p{L}\p{N}]+(?:[-_.][\p{L}\p{N}]+)+/gu;
/** An http(s) URL, up to whitespace or a quote. */
export const URL_PATTERN = /https?:\/\/[^\s"'<>()[\]{}]+/giu;
const HAS_LETTER = /\p{L}/u;
/** Text between these is one clause: word pairs never span them. */
const CLAUSE_BREAK = /[^\p{L}\p{N}\s'’-]+/u;

/** The lower-cased words of a text, in order. */
export function words(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/** True when the token has a letter (a word, not a bare number). */
export function hasLetter(token: string): boolean {
  return HAS_LETTER.test(token);
}

/** Each clause's words, for word pairs that never cross a comma or a full stop. */
export function clauseWords(text: string): string[][] {
  return text
    .toLowerCase()
    .split(CLAUSE_BREAK)
    .map((clause) => clause.match(WORD) ?? [])
    .filter((list) => list.length > 0);
}

/**
 * What the vocabulary generator counts: words with a letter of MIN_VOCABULARY_LENGTH or more, joined
 * compounds, and adjacent pairs of such words within a clause (`ferris wheel`).
 */
export function vocabularyTokens(text: string): { words: Set<string>; pairs: Set<string> } {
  const lower = text.toLowerCase().replace(URL_PATTERN, ' ');
  const found = new Set<string>();
  const pairs = new Set<string>();
  for (const clause of clauseWords(lower)) {
    for (let i = 0; i < clause.length; i += 1) {
      const word = clause[i] as string;
      if (!isVocabularyWord(word)) continue;
      found.add(word);
      const next = clause[i + 1];
      if (next !== undefined && isVocabularyWord(next)) pairs.add(`${word} ${next}`);
    }
  }
  for (const compound of lower.match(COMPOUND) ?? []) found.add(compound);
  return { words: found, pairs };
}

/** Words shorter than this are not counted at all (`a`, `of`, `4k`). */
export const MIN_VOCABULARY_LENGTH = 3;
/** A word shorter than this is never a fragment on its own (`tok` is a trigger word, `fox` a word). */
export const MIN_FRAGMENT_WORD = 4;

function isVocabularyWord(word: string): boolean {
  return word.length >= MIN_VOCABULARY_LENGTH && hasLetter(word);
}
