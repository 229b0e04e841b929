/**
 * A reply as the fast path compares it: whole, after normalising what does not change its meaning. Case,
 * width (NFKC), invisible marks (zero-width characters, direction marks, a BOM, soft hyphens), Hebrew points
 * and Arabic vowel marks, apostrophes (`don't` = `dont`), punctuation and symbols (as spaces), and runs of
 * whitespace. Arabic-Indic digits become ASCII ones. Whether the reply asked a question is kept apart: a
 * question is never decided by the fast path.
 */

export interface NormalizedReply {
  /** The reply reduced to words and digits separated by single spaces; '' when nothing is left. */
  text: string;
  /** The reply contains a question mark (Latin, Arabic, Spanish, full-width). */
  asked: boolean;
}

const INVISIBLE = /[\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;
/** Hebrew points and cantillation, Arabic harakat, tanween, shadda, superscript alef and Quranic marks. */
const VOWEL_MARKS = /[\u0591-\u05C7\u0610-\u061A\u064B-\u065F\u0670\u06D6-\u06ED]/g;
const APOSTROPHES = /['\u2018\u2019\u02BC\u05F3`]/g;
const QUESTION = /[?\uFF1F\u061F\u00BF\u2E2E]/;
const PUNCTUATION_AND_SYMBOLS = /[\p{P}\p{S}]/gu;
const ARABIC_DIGITS = /[\u0660-\u0669\u06F0-\u06F9]/g;

/** Whitespace and invisible marks at either end (a zero-width space, a direction mark, a BOM). */
const EDGES = /^[\s\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]+|[\s\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]+$/g;

/**
 * The reply without whitespace or invisible marks at its ends: what the person wrote. `String.trim` keeps a
 * zero-width space or a direction mark, so a reply made only of them would look like something was said.
 */
export function visibleReply(reply: string): string {
  return reply.replace(EDGES, '');
}

export function normalizeReply(reply: string): NormalizedReply {
  const asked = QUESTION.test(reply);
  const text = reply
    .normalize('NFKC')
    .replace(INVISIBLE, '')
    .replace(VOWEL_MARKS, '')
    .replace(ARABIC_DIGITS, (digit) => String((digit.codePointAt(0) ?? 0) % 16))
    .toLowerCase()
    .replace(APOSTROPHES, '')
    .replace(PUNCTUATION_AND_SYMBOLS, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
  return { text, asked };
}
