/**
 * Words for reviewers: how a field, a value and the field's expectations read in issue messages and
 * suggestions. Everything here is plain text, names the field, and never echoes a secret's value.
 */
import type { FieldRole, FieldSpec } from '../../generated/contracts.ts';
import { pointerToDotted } from '../../schema/contracts.ts';

const MAX_SHOWN_LENGTH = 60;
const MAX_LISTED_VALUES = 12;

const ATTACHMENT_KINDS: Partial<Record<FieldRole, string>> = {
  image_input: 'an image',
  mask_input: 'a mask image',
  audio_input: 'an audio file',
  video_input: 'a video',
  file_input: 'a file',
};

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  null: 'null',
  any: 'any value',
};

/** `/images/0` → `images[0]`; the payload itself reads as "the payload". */
export function fieldLabel(path: string): string {
  return pointerToDotted(path) || 'the payload';
}

/** A value as a reviewer should see it: strings quoted and shortened, secrets hidden. */
export function showValue(value: unknown, spec?: FieldSpec): string {
  if (spec?.role === 'secret') return '(hidden)';
  if (typeof value === 'string') return JSON.stringify(shorten(value));
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return value.length === 0 ? 'an empty list' : `a list of ${value.length}`;
  return 'an object';
}

/** The JSON type of a value, in words: `a string`, `an integer`, `a list`. */
export function typeOfValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return TYPE_NAMES.array ?? 'a list';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a number';
  return TYPE_NAMES[typeof value] ?? typeof value;
}

/** `integer` → `an integer`; `["string","null"]` → `a string or null`. */
export function typeNames(types: string | readonly string[]): string {
  const list = typeof types === 'string' ? types.split(',') : types;
  return list.map((type) => TYPE_NAMES[type.trim()] ?? type).join(' or ');
}

/** Enum members or other allowed values, listed (and cut short when there are many). */
export function listValues(values: readonly unknown[]): string {
  const shown = values.slice(0, MAX_LISTED_VALUES).map((value) => showValue(value));
  const more = values.length > MAX_LISTED_VALUES ? `, … (${values.length - MAX_LISTED_VALUES} more)` : '';
  return `${shown.join(', ')}${more}`;
}

/** `an image` for an image_input field, and so on; undefined for fields that take no file. */
export function attachmentKind(spec: FieldSpec | undefined): string | undefined {
  return spec ? ATTACHMENT_KINDS[spec.role] : undefined;
}

/** What a field accepts, in words: `one of "a", "b"`, `an integer between 1 and 4`, `a string`. */
export function expectedValue(spec: FieldSpec): string {
  if (spec.enum && spec.enum.length > 0) return `one of ${listValues(spec.enum)}`;
  return `${typeNames(spec.type)}${boundsPhrase(spec.minimum, spec.maximum)}`;
}

/** ` between 1 and 4`, ` of at least 1`, ` of at most 4`, or nothing. */
export function boundsPhrase(minimum: number | undefined, maximum: number | undefined): string {
  if (minimum !== undefined && maximum !== undefined) return ` between ${minimum} and ${maximum}`;
  if (minimum !== undefined) return ` of at least ${minimum}`;
  if (maximum !== undefined) return ` of at most ${maximum}`;
  return '';
}

/** `, or leave it out to use the default 1024` when the schema declares a default. */
export function defaultHint(spec: FieldSpec | undefined): string {
  if (!spec?.hasDefault) return '';
  return `, or leave it out to use the default ${showValue(spec.default, spec)}`;
}

/** `, or set it to the default 1024`: for a field that must have a value. */
export function useDefaultHint(spec: FieldSpec | undefined): string {
  if (!spec?.hasDefault) return '';
  return `, or set it to the default ${showValue(spec.default, spec)}`;
}

/** What a field accepts, attachments included: `the URL of an attached image`, `an integer between 1 and 4`. */
export function acceptedValue(spec: FieldSpec): string {
  const kind = attachmentKind(spec);
  return kind ? `the URL of ${kind} attached to the request` : expectedValue(spec);
}

/** What a reviewer can put in a field: attach a file, or set a value the field accepts. */
export function setValueHint(label: string, spec: FieldSpec | undefined): string {
  const kind = attachmentKind(spec);
  if (kind) return `attach ${kind} to the request and use its URL for ${label}`;
  if (!spec) return `set ${label} to a valid value`;
  return `set ${label} to ${expectedValue(spec)}`;
}

/** The closest known field name to a misspelt one, if any is close enough to be a likely typo. */
export function closestName(name: string, known: Iterable<string>): string | undefined {
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(name.length / 3)) + 1;
  for (const candidate of known) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function shorten(text: string): string {
  return text.length > MAX_SHOWN_LENGTH ? `${text.slice(0, MAX_SHOWN_LENGTH - 1)}…` : text;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
