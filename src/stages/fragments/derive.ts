/**
 * The distinctive pieces of a model's example values: what a payload may not carry unless the user wrote it.
 * An LLM builder never sees the example, so when a rare word, an identifier or a file name of it turns up in
 * a payload and the user never wrote it, it was copied (through a prompt template, a cache, a V2 path). The
 * whole-value rules of the leak firewall (../leak-firewall.ts) miss such partial copies:
 * `negative_prompt: "blurry, quokka-ferris-wheel-8812"` from the example prompt "a quokka-ferris-wheel-8812 at dusk".
 *
 * Derived once per extraction (the extractor calls deriveFragments and stores them with the quarantine), from
 * each example string, by kind:
 * - `url`: an http(s) URL; `url_path`: its path and query when PATH_MIN_LENGTH or longer; `file_name`: the last
 *   segment of a path, or a file name in text (`IMG_2931.jpg`), unless its base name is common (`image.png`);
 * - `identifier`: joined words (`quokka-ferris-wheel-8812`, `img_2931`) of IDENTIFIER_MIN_LENGTH or more with a
 *   digit or two joints, or letters and digits mixed in one word (`x9k2b`), unless common vocabulary;
 * - `number`: a number inside text with NUMBER_MIN_DIGITS significant digits or more that is distinctive
 *   (../distinctive-numbers.ts): `8812`, `918273645`, not `2048` or `1500`;
 * - `word`: a word of MIN_FRAGMENT_WORD letters or more that is not common vocabulary (`quokka`, `ohwx`);
 * - `pair`: two adjacent words of one clause, neither a stop word, that are not a common pair, with at least
 *   one of them less than frequent (`ferris wheel`, not `dramatic sunset`).
 * Common vocabulary is data (common-vocabulary.generated.ts: the words of many owners' model texts and the
 * most frequent spoken-English words). A piece the published schema itself says (its defaults, enum members,
 * titles and descriptions) or the model's name holds is schema content, not example content, and is dropped.
 * At most MAX_FRAGMENTS per model, the most distinctive kinds first.
 */
import type { ModelSchema } from '../../generated/contracts.ts';
import { EMBEDDED_NUMERAL, isDistinctiveNumber } from '../distinctive-numbers.ts';
import type { QuarantinedValue } from '../example-quarantine.ts';
import { COMMON_PAIRS_TEXT, COMMON_WORDS_TEXT, FREQUENT_WORDS_TEXT } from './common-vocabulary.generated.ts';
import { clauseWords, COMPOUND, hasLetter, MIN_FRAGMENT_WORD, URL_PATTERN, WORD } from './tokens.ts';

import type { ExampleFragment, FragmentKind } from './types.ts';

export type { ExampleFragment, FragmentKind } from './types.ts';

export const PATH_MIN_LENGTH = 8;
export const IDENTIFIER_MIN_LENGTH = 8;
export const NUMBER_MIN_DIGITS = 4;
export const MAX_FRAGMENTS = 400;
/** Of a very long example string (a 250 KB workflow JSON) only this much is read: the cap fills long before. */
export const MAX_SCANNED_LENGTH = 20_000;
export { MIN_FRAGMENT_WORD } from './tokens.ts';

/** Most distinctive first: what survives the cap. */
const KIND_ORDER: readonly FragmentKind[] = ['url', 'url_path', 'file_name', 'identifier', 'number', 'word', 'pair'];

const COMMON_WORDS: ReadonlySet<string> = new Set(COMMON_WORDS_TEXT.split(' '));
const FREQUENT_WORDS: ReadonlySet<string> = new Set(FREQUENT_WORDS_TEXT.split(' '));
const COMMON_PAIRS: ReadonlySet<string> = new Set(COMMON_PAIRS_TEXT.split('|'));
/** Words that carry no content of their own; a pair with one is not a phrase worth tracking. */
const STOP_WORDS: ReadonlySet<string> = new Set(
  ('a an the of in on at to for with and or but by from as into onto over under about above below between through ' +
    'is are was were be been being am do does did has have had this that these those it its it\'s his her their our ' +
    'your my me you he she they we them him us not no yes very more most less some any all each every other such ' +
    'than then there here what which who whom whose when where why how can could will would should may might must ' +
    'shall just only also too so if else while very one two three').split(' '),
);
/**
 * True for common vocabulary, inflections included: the list has `pastel` and `paint`, text has `pastels` and
 * `painted`. A rough English stemmer is enough here: it only ever makes fewer fragments.
 */
export function isCommonWord(word: string): boolean {
  if (COMMON_WORDS.has(word)) return true;
  return INFLECTIONS.some(([suffix, replacement]) => {
    if (!word.endsWith(suffix) || word.length - suffix.length < 3) return false;
    return COMMON_WORDS.has(word.slice(0, word.length - suffix.length) + replacement);
  });
}

const INFLECTIONS: readonly [string, string][] = [
  ['s', ''], ['es', ''], ['ies', 'y'], ['ed', ''], ['ed', 'e'], ['ing', ''], ['ing', 'e'], ['ly', ''], ['er', ''], ['est', ''],
];

const FILE_NAME = /^([\p{L}\p{N}_.-]+)\.([a-z0-9]{2,5})$/u;
const FILE_IN_TEXT = /[\p{L}\p{N}_-]+\.(?:png|jpe?g|webp|gif|bmp|tiff?|svg|mp3|wav|flac|ogg|m4a|mp4|mov|webm|avi|mkv|pdf|txt|json|csv|zip|safetensors|ckpt|pt|pth|bin|obj|glb|ply)(?![\p{L}\p{N}])/gu;
const MIXED = /^(?=.*\p{L})(?=.*\p{N})[\p{L}\p{N}]+$/u;

export interface DeriveOptions {
  /** Text the published schema itself says: defaults, enum members, titles, descriptions, the model's name. */
  schemaText: string;
}

/** The distinctive pieces of every example string, deduplicated, most distinctive first, capped. */
export function deriveFragments(entries: readonly QuarantinedValue[], options: DeriveOptions): ExampleFragment[] {
  const schemaText = options.schemaText.toLowerCase();
  const found = new Map<string, ExampleFragment>();
  const keep = (text: string, kind: FragmentKind, path: string): void => {
    if (text === '' || found.has(text) || schemaText.includes(text)) return;
    found.set(text, { text, kind, path });
  };
  for (const entry of entries) {
    if (typeof entry.value === 'string') piecesOf(entry.value.slice(0, MAX_SCANNED_LENGTH).toLowerCase(), entry.path, keep);
  }
  return [...found.values()]
    .sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || b.text.length - a.text.length || compare(a.text, b.text))
    .slice(0, MAX_FRAGMENTS);
}

/**
 * What a ModelSchema itself says (field names, titles, descriptions, defaults, enum members, the model's name):
 * the schema text for a quarantine stored before fragments were, whose published schema is not at hand.
 */
export function modelSchemaText(schema: ModelSchema): string {
  const parts: string[] = [schema.model ?? ''];
  for (const field of schema.fields) {
    parts.push(field.name, field.title ?? '', field.description ?? '', JSON.stringify(field.default ?? null), JSON.stringify(field.enum ?? []));
  }
  return parts.join('\n');
}

/**
 * What a published schema document says: every title, description, default, enum member and const under it
 * (never its example or examples keywords), and the model's name.
 */
export function publishedSchemaText(document: unknown, model: string | null): string {
  const parts: string[] = [model ?? ''];
  collectDeclared(document, parts, 0);
  return parts.join('\n');
}

const DECLARING = new Set(['title', 'description', 'default', 'enum', 'const']);

function collectDeclared(node: unknown, out: string[], depth: number): void {
  if (depth > 64 || node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const item of node) collectDeclared(item, out, depth + 1);
    return;
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === 'example' || key === 'examples') continue;
    if (DECLARING.has(key)) out.push(typeof value === 'string' ? value : JSON.stringify(value) ?? '');
    else collectDeclared(value, out, depth + 1);
  }
}

type Keep = (text: string, kind: FragmentKind, path: string) => void;

function piecesOf(text: string, path: string, keep: Keep): void {
  for (const url of text.match(URL_PATTERN) ?? []) urlPieces(trimUrl(url), path, keep);
  const rest = text.replace(URL_PATTERN, ' ');
  for (const name of rest.match(FILE_IN_TEXT) ?? []) fileNamePiece(name, path, keep);
  for (const compound of rest.match(COMPOUND) ?? []) compoundPiece(compound, path, keep);
  for (const match of rest.matchAll(EMBEDDED_NUMERAL)) numberPiece(match[0], path, keep);
  for (const word of rest.match(WORD) ?? []) wordPiece(word, path, keep);
  for (const clause of clauseWords(rest)) pairPieces(clause, path, keep);
}

function urlPieces(url: string, path: string, keep: Keep): void {
  keep(url, 'url', path);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return;
  }
  const rest = `${parsed.pathname}${parsed.search}`.toLowerCase();
  if (rest.length >= PATH_MIN_LENGTH) keep(rest, 'url_path', path);
  const last = decodeSafely(parsed.pathname.split('/').pop() ?? '').toLowerCase();
  if (last !== '') fileNamePiece(last, path, keep);
}

function fileNamePiece(name: string, path: string, keep: Keep): void {
  const match = FILE_NAME.exec(name);
  if (!match) return;
  const base = match[1] ?? '';
  // `image.png`, `input.jpg`, `output-1.mp4`: every model's examples have these.
  const content = (base.match(WORD) ?? []).filter((word) => hasLetter(word));
  if (base.length < MIN_FRAGMENT_WORD || content.every((word) => isCommonWord(word) || word.length < MIN_FRAGMENT_WORD)) {
    if (!/\p{N}{3,}/u.test(base)) return;
  }
  keep(name, 'file_name', path);
}

function compoundPiece(compound: string, path: string, keep: Keep): void {
  if (/^[\d.]+$/.test(compound) || isCommonWord(compound)) return;
  const joints = (compound.match(/[-_.]/g) ?? []).length;
  if (compound.length >= IDENTIFIER_MIN_LENGTH && (/\p{N}/u.test(compound) || joints >= 2)) keep(compound, 'identifier', path);
}

function numberPiece(numeral: string, path: string, keep: Keep): void {
  const value = Number(numeral);
  if (significantDigits(numeral) >= NUMBER_MIN_DIGITS && isDistinctiveNumber(value)) keep(String(value), 'number', path);
}

function wordPiece(word: string, path: string, keep: Keep): void {
  if (word.length < MIN_FRAGMENT_WORD || !hasLetter(word) || isCommonWord(word) || STOP_WORDS.has(word)) return;
  if (MIXED.test(word)) {
    if (word.length >= 5) keep(word, 'identifier', path);
    return;
  }
  keep(word, 'word', path);
}

function pairPieces(clause: readonly string[], path: string, keep: Keep): void {
  for (let i = 0; i + 1 < clause.length; i += 1) {
    const first = clause[i] as string;
    const second = clause[i + 1] as string;
    if (!isPairWord(first) || !isPairWord(second)) continue;
    // A rare word is a fragment on its own already; a pair of two frequent words is everyday language.
    if (!isCommonWord(first) || !isCommonWord(second)) continue;
    if (FREQUENT_WORDS.has(first) && FREQUENT_WORDS.has(second)) continue;
    const pair = `${first} ${second}`;
    if (!COMMON_PAIRS.has(pair)) keep(pair, 'pair', path);
  }
}

function isPairWord(word: string): boolean {
  return word.length >= MIN_FRAGMENT_WORD && hasLetter(word) && !STOP_WORDS.has(word) && !MIXED.test(word);
}

function significantDigits(numeral: string): number {
  return numeral.replace(/^-/, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '').length;
}

/** A URL in prose often ends with the sentence's punctuation. */
function trimUrl(url: string): string {
  return url.replace(/[.,;:!?]+$/, '');
}

function decodeSafely(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
