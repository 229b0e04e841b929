/**
 * When is a piece of text "traceable to the user"? Shared by the provenance check (a `user_prompt` claim) and
 * the leak firewall (a match the user wrote is not a leak), so the two never disagree about the same words.
 *
 * - A word token is a maximal run of letters and digits, case-folded: `K_EULER, 16:9!` → `k`, `euler`, `16`, `9`
 *   (a run of Japanese ends where digits or another script begin).
 * - Text is traceable when the user's evidence holds it as a phrase (whole words, case and whitespace
 *   ignored), or when every word token of it occurs somewhere in the evidence and at least one of those tokens
 *   has a letter. The second route lets a builder drop directive phrases ("make me a picture of") and reorder
 *   the user's words without losing traceability, while values made only of digits (`1:1`, `16:9`, `1024`)
 *   must appear as written: a stray "1" in the prompt does not vouch for an aspect ratio.
 * - CONNECTIVE_WORDS (English articles and plain prepositions: `a`, `the`, `of`, `in`…) need no evidence, so
 *   "red fox, snow" may become "a red fox in the snow", while every content word still needs the user.
 *   Negations (`no`, `not`, `without`) are deliberately absent from the list: they change meaning.
 */
import type { FieldSpec } from '../../generated/contracts.ts';
import { canonicalJson } from '../../util/canonical-hash.ts';
import { deriveValue, isConversionName, type DependencyContext } from '../../reading/index.ts';
import { normalizeText, type BundleEvidence } from '../bundle-evidence.ts';

/**
 * A run of letters and digits; a script written without spaces (Japanese) and the others part where they meet,
 * so `アスペクト比16:9` holds the tokens `アスペクト比`, `16` and `9`, as `aspect ratio 16:9` does.
 */
const WORD_TOKEN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30FC]+|(?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30FC])[\p{L}\p{N}])+/gu;
/** Words a builder may add to the user's words without evidence; they carry no request of their own. */
export const CONNECTIVE_WORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'the', 'of', 'in', 'on', 'at', 'to', 'for', 'with', 'and', 'by', 'from',
]);
const HAS_LETTER = /\p{L}/u;

/** The case-folded word tokens of a text, in order. */
export function wordTokens(text: string): string[] {
  return text.toLowerCase().match(WORD_TOKEN) ?? [];
}

const evidenceWordCache = new WeakMap<BundleEvidence, ReadonlySet<string>>();

/** Every word token of the user's evidence; computed once per evidence object. */
export function evidenceWords(evidence: BundleEvidence): ReadonlySet<string> {
  let words = evidenceWordCache.get(evidence);
  if (!words) {
    words = new Set(wordTokens(evidence.text));
    evidenceWordCache.set(evidence, words);
  }
  return words;
}

/** The word tokens of `text` that the user never wrote (empty when all of them are in the evidence). */
export function wordsMissingFromEvidence(evidence: BundleEvidence, text: string): string[] {
  const words = evidenceWords(evidence);
  const missing = wordTokens(text).filter((token) => !words.has(token) && !CONNECTIVE_WORDS.has(token) && !inUnspacedText(evidence, token));
  return [...new Set(missing)];
}

const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/**
 * Japanese and Chinese put no spaces between words, so a whole run of letters is one token: `スペイン語でおはよう`.
 * A builder that takes `スペイン語で` out leaves `おはよう`, which is no token of the user's; in such a script a
 * token counts when the user's text holds it as written.
 */
function inUnspacedText(evidence: BundleEvidence, token: string): boolean {
  return UNSPACED.test(token) && evidence.text.includes(token);
}

/** True when the user supplied this text, by the two routes described at the top of this file. */
export function isTraceableText(evidence: BundleEvidence, text: string): boolean {
  const needle = normalizeText(text);
  if (needle === '') return false;
  if (containsPhrase(evidence.text, needle)) return true;
  const tokens = wordTokens(needle).filter((token) => !CONNECTIVE_WORDS.has(token));
  if (tokens.length === 0 || !tokens.some((token) => HAS_LETTER.test(token))) return false;
  const words = evidenceWords(evidence);
  return tokens.every((token) => words.has(token));
}

/**
 * True when `needle` occurs in `haystack` on word boundaries: `cat` is in `a cat, sitting` but not in
 * `concatenate`. An edge of the needle that is not a word character (`, cinematic`) needs no boundary.
 * Both sides are expected to be normalised already (see normalizeText).
 */
export function containsPhrase(haystack: string, needle: string): boolean {
  if (needle === '') return false;
  const checkStart = isWordChar(needle.charCodeAt(0), needle[0]);
  const checkEnd = isWordChar(needle.charCodeAt(needle.length - 1), needle[needle.length - 1]);
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) {
    const end = at + needle.length;
    if (checkStart && at > 0 && isWordChar(haystack.charCodeAt(at - 1), haystack[at - 1])) continue;
    if (checkEnd && end < haystack.length && isWordChar(haystack.charCodeAt(end), haystack[end])) continue;
    return true;
  }
  return false;
}

const NON_ASCII_WORD_CHAR = /[\p{L}\p{N}]/u;

function isWordChar(code: number, char: string | undefined): boolean {
  if (code < 128) {
    return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
  }
  return char !== undefined && NON_ASCII_WORD_CHAR.test(char);
}

/**
 * True when the value is what a recorded conversion gives on the cited words, and those words are the user's:
 * `1 minute` → 60, `10 seconds` → "10.0", `in Spanish` → `es`, `vertical` → `9:16`. The conversion is re-run
 * here (src/reading/conversions.ts), so a builder cannot claim one it did not apply; a conversion name the
 * validator does not know, words the user never wrote, or a different result prove nothing. A value another
 * setting implies (`dependent_option`: a voice file attached → `custom_voice`) is re-read against the payload and
 * the schema (`context`): the cited words must give that other field the value it holds.
 */
export function isDerivedFromUser(
  evidence: BundleEvidence,
  conversion: unknown,
  phrase: unknown,
  field: FieldSpec | undefined,
  value: unknown,
  context?: DependencyContext,
): boolean {
  if (!isConversionName(conversion) || typeof phrase !== 'string' || phrase.trim() === '' || !field) return false;
  if (!evidence.text.includes(normalizeText(phrase)) || wordsMissingFromEvidence(evidence, phrase).length > 0) return false;
  const derived = deriveValue(conversion, phrase, field, context);
  return derived !== undefined && (derived.value === value || canonicalJson(derived.value) === canonicalJson(value));
}
