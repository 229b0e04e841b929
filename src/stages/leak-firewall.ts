/**
 * The leak firewall: finds quarantined example values (somebody else's request, published with the model) in a
 * payload. The validator turns each finding into a blocking `example_leak` issue; shadow mode uses the same
 * findings to report what the legacy V2 builder leaked. Only this file and shadow mode read the quarantine.
 *
 * The rules. A payload leaf (strings and numbers, walked through nested arrays and objects, paths like
 * `/images/0`) is a leak when it matches an example value as below AND none of the exemptions holds.
 *
 * Matching, after trimming, lower-casing and collapsing whitespace:
 * - exact (string): the leaf equals an example string. Example strings of EXACT_ANYWHERE_MIN_LENGTH characters or
 *   more match at any path; shorter ones (`png`, `2:3`, `ja`) only at their own field: the path the example
 *   request gave them, or the field whose schema carries them as its `example` / `examples` keyword
 *   (`#/language/example` is at `/language`, `#/image_size/examples/0/width` at `/image_size/width`), any list
 *   index standing for any other (ownFieldPath).
 * - substring (string): an example string of SUBSTRING_MIN_LENGTH characters or more occurs inside the leaf on
 *   word boundaries (`cinematic` is in `x, cinematic, y` but not in `cinematically`), or a leaf of that length
 *   occurs inside an example string (a truncated copy). Shorter strings are ordinary words and never match as
 *   substrings. A leaf that is a member of its field's enum is only ever matched exactly: enum members that
 *   contain one another (`refiner`, `base_refiner`) are configuration, not copied text. Nor is an example
 *   string that is (part of) a default or an enum member of any field looked for inside text, nor such a number:
 *   the schema says it too.
 * - number: numbers compare by value, and numeric strings (`"768"`) count as numbers on both sides. At its own
 *   field (as above) any equal number matches. At a different path only a distinctive number does (distinctive-numbers.ts):
 *   not an integer of magnitude up to COMMON_INTEGER_MAX, not a power of two or one less than one (seeds such
 *   as 4294967295), not a multiple of 8 up to IMAGE_DIMENSION_MAX (sizes), not a multiple of
 *   ROUND_INTEGER_STEP; and a fraction is not distinctive when it is a multiple of COMMON_FRACTION_STEP
 *   (0.5, 7.5, 0.8) or a power of ten (0.01).
 * - number inside text (string): a distinctive example number written as a word of a longer string (`a cat,
   seed 918273645`) matches at any path. Everyday numbers inside text (`2 cats`, `1024x768`) never do: text
   is full of them, and only a distinctive one says where it came from.
 * - fragment (string): a distinctive piece of an example string (a rare word or word pair, an identifier, a URL,
 *   its path or file name, a long distinctive number: fragments/derive.ts, derived once per extraction) inside
 *   the leaf, which the user's text does not hold (fragments/match.ts). Checked last, at any path.
 * Each leaf yields at most one finding: exact before substring before fragment; among equal examples the one at the leaf's own
 * path first; among substring matches the longest example string.
 *
 * Exemptions (the match is traceable to the bundle or is safe configuration):
 * - a boolean or null is never a leak (the quarantine does not even keep them);
 * - the field's whole value equals the schema's own default for that field;
 * - the field's whole value equals the human edit for that field (checked against the bundle, so a builder
 *   cannot launder a value by labelling it `human_edit`);
 * - strings: the user supplied the text (traceability.ts: the phrase is in the user's words, or every word of
 *   it is) — the leaf for an exact match or a truncated copy, the example string for a substring match. This
 *   also covers an enum member the user named;
 * - numbers: the user wrote the number (`seed 42`, `42.0`).
 */
import type { FieldSpec, ModelSchema, RequestBundle } from '../generated/contracts.ts';
import { canonicalJson } from '../util/canonical-hash.ts';
import {
  canonicalNumber,
  collectBundleEvidence,
  evidenceMentionsNumber,
  normalizeText,
  type BundleEvidence,
} from './bundle-evidence.ts';
import { EMBEDDED_NUMERAL, isDistinctiveNumber } from './distinctive-numbers.ts';
import { escapePointer, isPlainObject, type ExampleQuarantine, type QuarantinedValue } from './example-quarantine.ts';
import { deriveFragments, modelSchemaText, type ExampleFragment } from './fragments/derive.ts';
import { untracedFragmentIn } from './fragments/match.ts';
import { containsPhrase, isTraceableText } from './validator/traceability.ts';

/** Example strings this long or longer match exactly at any path; shorter ones only at their own path. */
export const EXACT_ANYWHERE_MIN_LENGTH = 6;
/** Example strings (and leaves) this long or longer match as substrings; shorter ones are ordinary words. */
export const SUBSTRING_MIN_LENGTH = 8;
export { COMMON_FRACTION_STEP, COMMON_INTEGER_MAX, IMAGE_DIMENSION_MAX, isDistinctiveNumber, ROUND_INTEGER_STEP } from './distinctive-numbers.ts';
/** Payloads nest shallowly; deeper leaves are not inspected (a schema check rejects such shapes anyway). */
const MAX_WALK_DEPTH = 16;
const NUMERAL = /^-?\d+(?:\.\d+)?$/;

export type LeakMatch = 'exact' | 'substring' | 'number' | 'fragment';

export interface LeakFinding {
  /** JSON pointer of the leaking payload leaf (`/prompt`, `/images/0`). */
  path: string;
  /** The payload leaf as it is. */
  value: unknown;
  /** Where the matching value sat in the example. */
  examplePath: string;
  exampleValue: string | number;
  match: LeakMatch;
  /** For a `fragment` match: the distinctive piece the leaf shares with the example value. */
  fragment?: string;
}

export interface LeakContext {
  schema: ModelSchema;
  /** The bundle, or its evidence when the caller has already collected it (the validator does). */
  bundle: RequestBundle | BundleEvidence;
  /**
   * Fields whose value a recorded conversion gives again from the user's own words (`al doble` → 2, `полминуты`
   * → 30), checked by re-running it (traceability.ts `isDerivedFromUser`): the user supplied that value.
   */
  derivedFields?: ReadonlySet<string>;
}

/**
 * Every example value in the payload that the user did not supply, one finding per leaf, sorted by path.
 * Pure and deterministic; the quarantine's index is built once per quarantine and reused.
 */
export function findExampleLeaks(
  payload: Readonly<Record<string, unknown>>,
  quarantine: ExampleQuarantine,
  context: LeakContext,
): LeakFinding[] {
  if (quarantine.size === 0 || !isPlainObject(payload)) return [];
  const scan: Scan = {
    index: exampleIndexFor(quarantine),
    fragments: fragmentsFor(quarantine, context.schema),
    declared: declaredValues(context.schema),
    evidence: isBundleEvidence(context.bundle) ? context.bundle : collectBundleEvidence(context.bundle),
    fields: fieldsByName(context.schema),
    payload,
    exemptFields: new Map(),
    findings: [],
  };
  for (const [key, value] of Object.entries(payload)) if (!context.derivedFields?.has(key)) walk(scan, value, `/${pointerSegment(key)}`, key, 1);
  return scan.findings.sort((a, b) => compareStrings(a.path, b.path) || compareStrings(a.examplePath, b.examplePath));
}

interface ExampleString {
  text: string;
  entry: QuarantinedValue;
}

interface ExampleIndex {
  /** Normalised example string → its entries. */
  strings: Map<string, QuarantinedValue[]>;
  /** Example strings of SUBSTRING_MIN_LENGTH or more, longest first. */
  longStrings: ExampleString[];
  /** Canonical number → its entries (numeric example strings included). */
  numbers: Map<string, QuarantinedValue[]>;
  /** The distinctive ones among them, looked for inside text. */
  distinctiveNumbers: Map<string, QuarantinedValue[]>;
  /** Every string entry by its path, to say which example value a fragment came from. */
  entriesByPath: Map<string, QuarantinedValue>;
  /** Each entry's own field, as a payload path (ownFieldPath). */
  fieldPaths: Map<QuarantinedValue, string>;
}

interface Scan {
  index: ExampleIndex;
  fragments: readonly ExampleFragment[];
  /** Every field's default and enum members: schema content, not example content. */
  declared: Declared;
  evidence: BundleEvidence;
  fields: ReadonlyMap<string, FieldSpec>;
  payload: Readonly<Record<string, unknown>>;
  /** Field name → whether its whole value is the default or the human edit; filled on first match only. */
  exemptFields: Map<string, boolean>;
  findings: LeakFinding[];
}

const indexCache = new WeakMap<ExampleQuarantine, ExampleIndex>();

/** A quarantine never changes after it is made, so its index is built once and kept with it. */
function exampleIndexFor(quarantine: ExampleQuarantine): ExampleIndex {
  let index = indexCache.get(quarantine);
  if (!index) {
    index = buildIndex(quarantine.entries());
    indexCache.set(quarantine, index);
  }
  return index;
}

function buildIndex(entries: readonly QuarantinedValue[]): ExampleIndex {
  const index: ExampleIndex = { strings: new Map(), longStrings: [], numbers: new Map(), distinctiveNumbers: new Map(), entriesByPath: new Map(), fieldPaths: new Map() };
  const addNumber = (num: number, entry: QuarantinedValue): void => {
    pushTo(index.numbers, canonicalNumber(num), entry);
    if (isDistinctiveNumber(num)) pushTo(index.distinctiveNumbers, canonicalNumber(num), entry);
  };
  for (const entry of entries) {
    index.fieldPaths.set(entry, ownFieldPath(entry.path));
    if (typeof entry.value === 'number') {
      addNumber(entry.value, entry);
      continue;
    }
    if (!index.entriesByPath.has(entry.path)) index.entriesByPath.set(entry.path, entry);
    const text = normalizeText(entry.value);
    if (text === '') continue;
    if (NUMERAL.test(text)) {
      addNumber(Number(text), entry);
      continue;
    }
    pushTo(index.strings, text, entry);
    if (text.length >= SUBSTRING_MIN_LENGTH) index.longStrings.push({ text, entry });
  }
  index.longStrings.sort((a, b) => b.text.length - a.text.length || compareStrings(a.entry.path, b.entry.path));
  return index;
}

function walk(scan: Scan, value: unknown, path: string, field: string, depth: number): void {
  if (typeof value === 'string') {
    checkString(scan, value, path, field);
  } else if (typeof value === 'number') {
    checkNumber(scan, value, value, path, field);
  } else if (depth < MAX_WALK_DEPTH && Array.isArray(value)) {
    value.forEach((item, i) => walk(scan, item, `${path}/${i}`, field, depth + 1));
  } else if (depth < MAX_WALK_DEPTH && isPlainObject(value)) {
    for (const [key, inner] of Object.entries(value)) walk(scan, inner, `${path}/${pointerSegment(key)}`, field, depth + 1);
  }
}

function checkString(scan: Scan, value: string, path: string, field: string): void {
  const text = normalizeText(value);
  if (text === '') return;
  if (NUMERAL.test(text)) {
    checkNumber(scan, Number(text), value, path, field);
    return;
  }
  const exact = exactEntry(scan, text, path);
  if (exact) {
    // A traceable leaf also vouches for any example text inside it (its words are the user's), so stop here.
    if (!isExemptField(scan, field) && !isTraceableText(scan.evidence, value)) scan.findings.push(finding(path, value, exact, 'exact'));
    return;
  }
  if (isEnumMember(scan.fields.get(field), value) || isExemptField(scan, field)) return;
  const partial = substringFinding(scan, text, value, path) ?? embeddedNumberFinding(scan, value, path) ?? fragmentFinding(scan, text, value, path);
  if (partial) scan.findings.push(partial);
}

/** A distinctive piece of an example string inside the text that the user did not write. */
function fragmentFinding(scan: Scan, text: string, value: string, path: string): LeakFinding | undefined {
  const fragment = untracedFragmentIn(text, scan.fragments, scan.evidence);
  if (!fragment) return undefined;
  const entry = scan.index.entriesByPath.get(fragment.path);
  return { path, value, examplePath: fragment.path, exampleValue: entry?.value ?? fragment.text, match: 'fragment', fragment: fragment.text };
}

const derivedFragments = new WeakMap<ExampleQuarantine, readonly ExampleFragment[]>();

/**
 * The quarantine's fragments: stored by the extractor, or, for a quarantine stored before fragments existed,
 * derived here once from its values and the ModelSchema's own text (descriptions, defaults, enum members).
 */
function fragmentsFor(quarantine: ExampleQuarantine, schema: ModelSchema): readonly ExampleFragment[] {
  const stored = quarantine.fragments();
  if (stored) return stored;
  let derived = derivedFragments.get(quarantine);
  if (!derived) {
    derived = deriveFragments(quarantine.entries(), { schemaText: modelSchemaText(schema) });
    derivedFragments.set(quarantine, derived);
  }
  return derived;
}

/** A distinctive example number inside the text that the user did not write. */
function embeddedNumberFinding(scan: Scan, value: string, path: string): LeakFinding | undefined {
  if (scan.index.distinctiveNumbers.size === 0) return undefined;
  for (const match of value.matchAll(EMBEDDED_NUMERAL)) {
    const num = Number(match[0]);
    const entries = scan.index.distinctiveNumbers.get(canonicalNumber(num));
    if (entries?.[0] && !evidenceMentionsNumber(scan.evidence, num) && !scan.declared.numbers.has(canonicalNumber(num))) {
      return finding(path, value, entries[0], 'number');
    }
  }
  return undefined;
}

function exactEntry(scan: Scan, text: string, path: string): QuarantinedValue | undefined {
  const entries = scan.index.strings.get(text);
  if (!entries) return undefined;
  return atOwnField(scan.index, entries, path) ?? (text.length >= EXACT_ANYWHERE_MIN_LENGTH ? entries[0] : undefined);
}

/** The entry whose example sat at this very path, else one whose own field this path is. */
function atOwnField(index: ExampleIndex, entries: readonly QuarantinedValue[], path: string): QuarantinedValue | undefined {
  const exact = entries.find((entry) => entry.path === path);
  if (exact) return exact;
  const field = ownFieldPath(path);
  return entries.find((entry) => index.fieldPaths.get(entry) === field);
}

/**
 * The payload path an example value belongs at, with `*` for every list index. The example request's paths are
 * payload paths already (`/images/0` → `/images/*`). A schema's `example` / `examples` keyword is quarantined
 * under the schema path of its node and the keyword (`#/style/example`, `#/style/examples/1`,
 * `#/image_size/examples/0/width`, `#/opts.mode/example`, `#/images[]/example`, `#//example/style` for one on
 * the whole body), and a sample default under `#/prompt/default`: each belongs at the field its node describes.
 */
export function ownFieldPath(examplePath: string): string {
  if (!examplePath.startsWith('#/')) return withAnyIndex(examplePath.split('/'));
  const [node = '', keyword, ...inValue] = examplePath.slice(2).split('/');
  // `examples` is a list of examples: its first step says which one, not where in the value.
  const within = keyword === 'examples' ? inValue.slice(1) : inValue;
  const fieldSteps = node === '' ? [] : node.split('.').flatMap((step) => {
    const name = step.replace(/(?:\[\])+$/, '');
    const lists = (step.length - name.length) / 2;
    return [name, ...Array<string>(lists).fill('*')];
  });
  return withAnyIndex(['', ...fieldSteps, ...within]);
}

function withAnyIndex(steps: readonly string[]): string {
  return steps.map((step) => (/^\d+$/.test(step) ? '*' : step)).join('/');
}

/** An untraceable long example string inside the leaf, or the leaf inside a long example string. */
function substringFinding(scan: Scan, text: string, value: string, path: string): LeakFinding | undefined {
  if (scan.index.longStrings.length === 0) return undefined;
  for (const example of scan.index.longStrings) {
    if (containsPhrase(text, example.text) && !isTraceableText(scan.evidence, example.text) && !isDeclared(scan.declared, example.text)) {
      return finding(path, value, example.entry, 'substring');
    }
  }
  if (text.length < SUBSTRING_MIN_LENGTH) return undefined;
  const source = scan.index.longStrings.find((example) => containsPhrase(example.text, text));
  if (!source || isTraceableText(scan.evidence, value)) return undefined;
  return finding(path, value, source.entry, 'substring');
}

function checkNumber(scan: Scan, num: number, value: unknown, path: string, field: string): void {
  if (!Number.isFinite(num)) return;
  const entries = scan.index.numbers.get(canonicalNumber(num));
  if (!entries) return;
  const entry = atOwnField(scan.index, entries, path) ?? (isDistinctiveNumber(num) ? entries[0] : undefined);
  if (!entry || evidenceMentionsNumber(scan.evidence, num) || isExemptField(scan, field)) return;
  scan.findings.push(finding(path, value, entry, 'number'));
}

/** The whole field is the schema's default or the user's own edit: nothing in it can be a leak. */
function isExemptField(scan: Scan, field: string): boolean {
  let exempt = scan.exemptFields.get(field);
  if (exempt === undefined) {
    const value = scan.payload[field];
    const spec = scan.fields.get(field);
    const edits = scan.evidence.humanEdits;
    exempt =
      (spec?.hasDefault === true && sameJson(value, spec.default)) ||
      (Object.hasOwn(edits, field) && sameJson(value, edits[field]));
    scan.exemptFields.set(field, exempt);
  }
  return exempt;
}

function finding(path: string, value: unknown, entry: QuarantinedValue, match: LeakMatch): LeakFinding {
  return { path, value, examplePath: entry.path, exampleValue: entry.value, match };
}

function isEnumMember(spec: FieldSpec | undefined, value: string): boolean {
  return spec?.enum?.includes(value) === true;
}

interface Declared {
  /** The string defaults and enum members, normalised, one per line. */
  text: string;
  /** The numeric ones (numbers and numeric strings), canonical. */
  numbers: ReadonlySet<string>;
}

const declaredCache = new WeakMap<readonly FieldSpec[], Declared>();

/**
 * The schema's own values (defaults, enum members). An example value that is one, or part of one
 * (`K_EULER_ANCESTRAL`, `rsm-female` of the default `rsm-female (TOKYVR)`, a default seed the example repeats),
 * is what the schema says anyway: inside a longer leaf it is no copy from the example.
 */
function declaredValues(schema: ModelSchema): Declared {
  let declared = declaredCache.get(schema.fields);
  if (!declared) {
    const values = schema.fields.flatMap((spec) => [...(spec.enum ?? []), ...(spec.hasDefault ? [spec.default] : [])]);
    const strings = values.filter((value): value is string => typeof value === 'string').map(normalizeText);
    const numbers = values
      .map((value) => (typeof value === 'number' ? value : typeof value === 'string' && NUMERAL.test(value.trim()) ? Number(value) : Number.NaN))
      .filter(Number.isFinite)
      .map(canonicalNumber);
    declared = { text: strings.join('\n'), numbers: new Set(numbers) };
    declaredCache.set(schema.fields, declared);
  }
  return declared;
}

function isDeclared(declared: Declared, text: string): boolean {
  return declared.text.includes(text) && containsPhrase(declared.text, text);
}

const fieldCache = new WeakMap<readonly FieldSpec[], ReadonlyMap<string, FieldSpec>>();

function fieldsByName(schema: ModelSchema): ReadonlyMap<string, FieldSpec> {
  let fields = fieldCache.get(schema.fields);
  if (!fields) {
    fields = new Map(schema.fields.map((spec) => [spec.name, spec]));
    fieldCache.set(schema.fields, fields);
  }
  return fields;
}

function isBundleEvidence(bundle: RequestBundle | BundleEvidence): bundle is BundleEvidence {
  return 'numbers' in bundle && bundle.numbers instanceof Set && typeof (bundle as BundleEvidence).text === 'string';
}

function sameJson(a: unknown, b: unknown): boolean {
  return a === b || (typeof a === 'object' && typeof b === 'object' && canonicalJson(a) === canonicalJson(b));
}

/** escapePointer, skipped for the usual key that has nothing to escape. */
function pointerSegment(key: string): string {
  return key.includes('~') || key.includes('/') ? escapePointer(key) : key;
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
