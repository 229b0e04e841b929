/**
 * Settings asked for by what they do, not by their name or their option as written.
 *
 * - A switch named for an action of two words (`handfix`: fix the hands; `remove_background`; `face_upsample`) is
 *   asked for when a clause says that action in its own words, in either order, with at most two words between
 *   and endings aside (`fix the hands`, `upsample the faces`); a negation before it asks for it off (`don't fix
 *   the hands`). A name written as one word is split where both parts are words of the field's own description
 *   or title (`handfix`, described "fix hands in the image" → hand + fix). Words too vague to say what a field
 *   does (`use`, `image`, `output`) never count, so the action is always two content words.
 * - An option of several words spread over a clause (`crop_to_16_9` ← `crop it to 16:9`, `use_image_dimensions` ←
 *   `use the image dimensions`): its words in order, at most one other word between two of them.
 *
 * Both are weak alone: the readers count them only in a clause of their own (find.ts), so `a robot that can fix
 * the hands of a clock, watercolor` keeps its words. Deterministic: the same words and field give the same value.
 */
import type { FieldSpec } from '../generated/contracts.ts';
import { nameWords } from './fields.ts';
import { escapeRegExp } from './patterns.ts';

/** Words that say nothing of what a field does by themselves. */
const VAGUE = new Set([
  'use', 'enable', 'input', 'output', 'image', 'images', 'video', 'audio', 'text', 'file', 'model', 'mode', 'type', 'value', 'num',
  'number', 'max', 'min', 'with', 'and', 'the', 'for', 'return', 'apply', 'add', 'new', 'custom', 'default', 'prompt', 'option',
  'options', 'setting', 'settings', 'enabled', 'disabled', 'true', 'false', 'all', 'only', 'auto',
]);

/** Trailing name words that say "which one", not what (`style_type`, `upscale_mode`). */
const GENERIC_TAIL = new Set(['type', 'option', 'options', 'mode', 'preset', 'selection', 'choice', 'setting', 'kind', 'value', 'strategy', 'method']);

const SHORTEST_PART = 3;

/** The two words of the action a field is named for, or undefined when its name says no such action. */
export function actionWords(field: FieldSpec): readonly [string, string] | undefined {
  const cached = actionCache.get(field.name + '\u0000' + (field.description ?? ''));
  if (cached !== undefined) return cached === null ? undefined : cached;
  const found = findActionWords(field);
  if (actionCache.size > 2000) actionCache.clear();
  actionCache.set(field.name + '\u0000' + (field.description ?? ''), found ?? null);
  return found;
}

const actionCache = new Map<string, readonly [string, string] | null>();

function findActionWords(field: FieldSpec): readonly [string, string] | undefined {
  let words = nameWords(field.name);
  if (words.length > 1 && GENERIC_TAIL.has(words[words.length - 1] ?? '')) words = words.slice(0, -1);
  const described = new Set(`${field.description ?? ''} ${field.title ?? ''}`.toLowerCase().match(/\p{L}{3,}/gu) ?? []);
  if (words.length === 1) words = splitCompound(words[0] ?? '', described) ?? words;
  if (words.length !== 2) return undefined;
  const [first, second] = words as [string, string];
  if ([first, second].some((word) => word.length < SHORTEST_PART || !/^\p{L}+$/u.test(word) || VAGUE.has(word))) return undefined;
  return [first, second];
}

/** `handfix` with `fix` and `hands` among the description's words → hand + fix; undefined when no split fits. */
function splitCompound(word: string, described: ReadonlySet<string>): string[] | undefined {
  if (word.length < SHORTEST_PART * 2) return undefined;
  for (let at = SHORTEST_PART; at <= word.length - SHORTEST_PART; at += 1) {
    const parts = [word.slice(0, at), word.slice(at)];
    if (parts.every((part) => [...described].some((known) => known !== word && sameStem(known, part)))) return parts;
  }
  return undefined;
}

/** `hands` and `hand`, `removal` and `remove`: one word with an ending of at most four letters. */
function sameStem(written: string, word: string): boolean {
  const stem = stemOf(word);
  return written.startsWith(stem) && written.length - stem.length <= ENDING;
}

const ENDING = 4;

function stemOf(word: string): string {
  return word.length <= 4 ? word : word.slice(0, Math.max(4, word.length - 2));
}

function stemSource(word: string): string {
  return `${escapeRegExp(stemOf(word))}\\p{L}{0,${ENDING}}`;
}

/** Regex source for the field's action in a clause (group `act`, a negation before it in `actNeg`), or undefined. */
export function actionSource(field: FieldSpec, negations: string): string | undefined {
  const words = actionWords(field);
  if (!words) return undefined;
  const gap = `(?:[\\s'’-]+[\\p{L}'’]+){0,2}[\\s'’-]+`;
  const [a, b] = words.map(stemSource) as [string, string];
  const edge = '(?<![\\p{L}\\p{N}_])';
  // Followed by `:` or `=` the words are the field's name with a value of its own (`face enhance: maybe`).
  const end = '(?![\\p{L}\\p{N}_])(?!\\s*[:=])';
  return `(?:(?<actNeg>${negations})\\s+)?(?<act>${edge}(?:${a}${gap}${b}|${b}${gap}${a})${end})`;
}

/** False when the text cannot say the field's action: the stem of one of its words is missing (a cheap test first). */
export function maySayAction(field: FieldSpec, text: string): boolean {
  const words = actionWords(field);
  if (!words) return false;
  const folded = text.toLowerCase();
  return words.every((word) => folded.includes(stemOf(word)));
}

/** The words of an option or of the user's text: `crop_to_16_9` → crop to 16 9. */
function tokensOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * The option the action chooses, of a field with an option for off (`disabled`): off after a negation; else the
 * field's option for on, else the one option (not off) holding a word of the phrase (`fix the hands` →
 * `hands_only` rather than `image_and_hands`: fewest other words), else the only option that is not off.
 */
export function actionOption(options: readonly string[], off: string | undefined, on: string | undefined, phrase: string, negated: boolean): string | undefined {
  if (off === undefined) return undefined;
  if (negated) return off;
  if (on !== undefined) return on;
  const said = tokensOf(phrase);
  const others = options.filter((option) => option !== off);
  const holding = others
    .map((option) => ({ option, tokens: tokensOf(option) }))
    .filter(({ tokens }) => tokens.some((token) => said.some((word) => word.length >= SHORTEST_PART && (sameStem(word, token) || sameStem(token, word)))));
  if (holding.length > 0) {
    const fewest = Math.min(...holding.map(({ tokens }) => tokens.length));
    const best = holding.filter(({ tokens }) => tokens.length === fewest);
    return best.length === 1 ? best[0]?.option : undefined;
  }
  return others.length === 1 ? others[0] : undefined;
}

/** Options of two to four words whose first word is a word of three letters or more: those that may be spread. */
function spreadable(options: readonly string[]): string[][] {
  return options.map(tokensOf).filter((tokens) => tokens.length >= 2 && tokens.length <= 4 && /^\p{L}{3,}$/u.test(tokens[0] ?? '') && !tokens.every((token) => VAGUE.has(token)));
}

/** Most options a field may have for its options to be read spread over a clause (longer lists are names and codes). */
const MOST_SPREAD_OPTIONS = 30;

/** Regex source for an option's words spread over a clause (no groups), or undefined when none may be. */
export function spreadOptionSource(options: readonly string[]): string | undefined {
  if (options.length > MOST_SPREAD_OPTIONS) return undefined;
  const runs = spreadable(options);
  if (runs.length === 0) return undefined;
  const between = `(?:[\\s:_/'’-]+[\\p{L}'’]+)?[\\s:_/'’-]+`;
  const bodies = runs.map((tokens) => tokens.map(escapeRegExp).join(between));
  return `(?<![\\p{L}\\p{N}_])(?:${[...new Set(bodies)].join('|')})(?![\\p{L}\\p{N}_])`;
}

/** The option whose words the written phrase holds in order (the most words; none on a tie). */
export function spreadOption(options: readonly string[], written: string): string | undefined {
  const said = tokensOf(written);
  const fits = options.filter((option) => {
    const tokens = tokensOf(option);
    if (tokens.length < 2 || said[0] !== tokens[0] || said[said.length - 1] !== tokens[tokens.length - 1]) return false;
    let at = 0;
    for (const word of said) if (word === tokens[at]) at += 1;
    return at >= tokens.length;
  });
  if (fits.length === 0) return undefined;
  const most = Math.max(...fits.map((option) => tokensOf(option).length));
  const best = fits.filter((option) => tokensOf(option).length === most);
  return best.length === 1 ? best[0] : undefined;
}
