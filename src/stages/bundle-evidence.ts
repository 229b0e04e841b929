/**
 * What the user actually supplied, in searchable form. The builder cites it as provenance evidence and the
 * validator checks claims and example leaks against it: a value is "traceable to the bundle" when it can
 * be found here.
 *
 * Only the caller's own words count: the prompt, the user and system turns of the conversation (a system turn is
 * the calling app's instruction, written by it like the prompt), attachment URLs and names, human edits and
 * profile values. Assistant turns are not evidence, because an assistant that once echoed an example would
 * otherwise launder it.
 */
import type { RequestBundle } from '../generated/contracts.ts';
import { numberSource, parseWrittenNumber } from '../reading/numbers.ts';

export interface BundleEvidence {
  /** Lower-cased text of everything the user supplied, whitespace collapsed. */
  readonly text: string;
  /** Every number written in that text, in digits or as a number word (`four`), as canonical strings (`768`, `7.5`, `-1`, `4`). */
  readonly numbers: ReadonlySet<string>;
  readonly attachmentUrls: ReadonlySet<string>;
  readonly humanEdits: Readonly<Record<string, unknown>>;
}

export function collectBundleEvidence(bundle: RequestBundle): BundleEvidence {
  const parts: string[] = [bundle.prompt];
  for (const turn of bundle.conversation) if (turn.role !== 'assistant') parts.push(turn.content);
  for (const attachment of bundle.attachments) parts.push(attachment.url, attachment.name ?? '');
  for (const value of Object.values(bundle.userProfile)) parts.push(String(value));
  for (const value of Object.values(bundle.humanEdits)) parts.push(flattenToText(value));
  const text = normalizeText(parts.join('\n'));
  return {
    text,
    numbers: new Set([...extractNumbers(text), ...numberWords(text)]),
    attachmentUrls: new Set(bundle.attachments.map((a) => a.url)),
    humanEdits: bundle.humanEdits,
  };
}

export function normalizeText(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** True when the (normalised) string occurs in the user's text. Empty strings are never evidence. */
export function evidenceContains(evidence: BundleEvidence, value: string): boolean {
  const needle = normalizeText(value);
  return needle !== '' && evidence.text.includes(needle);
}

/** True when the user wrote this number somewhere (`seed 42`, `42.0` and `42` count as the same). */
export function evidenceMentionsNumber(evidence: BundleEvidence, value: number): boolean {
  return evidence.numbers.has(canonicalNumber(value));
}

export function canonicalNumber(value: number): string {
  return String(Number(value));
}

const NUMBER_PATTERN = /-?\d+(?:\.\d+)?/g;

/**
 * A hyphen may be a minus sign or a separator ("512-768", "qz-7731"), so a number written with one counts
 * both ways: the user mentioned -768 or 768.
 */
function extractNumbers(text: string): string[] {
  return (text.match(NUMBER_PATTERN) ?? []).flatMap((token) => {
    const value = Number(token);
    return value < 0 ? [canonicalNumber(value), canonicalNumber(-value)] : [canonicalNumber(value)];
  });
}

let wordPattern: RegExp | undefined;

/** The numbers written as words (`four`, `cuatro`, `четыре`): a reply `make it four` asks for 4 as surely as `4`. */
function numberWords(text: string): string[] {
  wordPattern ??= new RegExp(numberSource(), 'giu');
  return [...text.matchAll(wordPattern)].flatMap((match) => {
    if (/\d/.test(match[0])) return [];
    const value = parseWrittenNumber(match[0]);
    return value === undefined ? [] : [canonicalNumber(value)];
  });
}

function flattenToText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
