/**
 * The provenance check: every payload field must say where its value came from, and the claim must hold
 * against the bundle. A label is a claim, not a proof, so a builder cannot launder a value by labelling it.
 *
 * - no provenance entry → blocking.
 * - `inferred` → warning: the builder chose it, the user did not supply it; a person should look. On a
 *   safety setting (role `safety`: `disable_safety_checker`, `safety_tolerance`) it is blocking unless it is the
 *   schema default: an LLM builder must not be able to loosen a safety checker on its own and have it run.
 * - `human_edit` → the value deep-equals `bundle.humanEdits[field]`.
 * - `attachment` → the value holds at least one string, and every string in it is an attachment URL.
 * - `schema_default` → the field has a schema default and the value deep-equals it.
 * - `user_prompt` → every leaf is traceable to the user's evidence (bundle-evidence.ts: prompt, user turns,
 *   attachment URLs and names, profile values, human edits):
 *   - strings: every word token (a maximal run of letters and digits, case-folded; traceability.ts) occurs in
 *     the evidence. The builder may drop directive phrases ("make me an image of") and reorder or re-punctuate
 *     the user's words, so a contiguous-substring rule would be too strict; it may not add a word the user
 *     never wrote. A string with no word tokens (`""`, `"!"`) carries no content and passes;
 *   - numbers: the user wrote the number (`42`, `42.0`);
 *   - booleans: the value itself says nothing, so the claim must cite the user's phrase (`evidence`, e.g.
 *     "without watermark"), and every word of it must be the user's. Otherwise a builder could switch a
 *     safety checker off and call it the user's wish;
 *   - null: accepted, it carries no content;
 *   - any value the claim's recorded `conversion` gives on its cited `evidence` (`1 minute` → 60, `in Spanish`
 *     → `es`), the evidence being the user's words: the conversion is re-run, not trusted (traceability.ts);
 *     a value another setting implies (`dependent_option`) is re-read against the rest of the payload.
 * A failed claim is blocking.
 */
import { assertNever } from '../../errors.ts';
import type {
  CandidatePayload,
  FieldProvenance,
  FieldSpec,
  ProvenanceSource,
  ValidationIssue,
} from '../../generated/contracts.ts';
import type { DependencyContext } from '../../reading/index.ts';
import { canonicalJson } from '../../util/canonical-hash.ts';
import { evidenceMentionsNumber, type BundleEvidence } from '../bundle-evidence.ts';
import { escapePointer, isPlainObject } from '../example-quarantine.ts';
import { attachmentKind, showValue, useDefaultHint } from './describe.ts';
import { isDerivedFromUser, wordsMissingFromEvidence } from './traceability.ts';

const KNOWN_SOURCES: ReadonlySet<string> = new Set<ProvenanceSource>([
  'user_prompt',
  'attachment',
  'human_edit',
  'schema_default',
  'inferred',
]);
const MAX_LISTED_WORDS = 5;

interface FieldClaim {
  field: string;
  label: string;
  value: unknown;
  spec: FieldSpec | undefined;
}

/** One issue per payload field whose provenance is missing, inferred or does not hold. */
export function provenanceIssues(
  candidate: CandidatePayload,
  fields: ReadonlyMap<string, FieldSpec>,
  evidence: BundleEvidence,
): ValidationIssue[] {
  if (!isPlainObject(candidate.payload)) return [];
  const provenance = isPlainObject(candidate.provenance) ? candidate.provenance : {};
  const issues: ValidationIssue[] = [];
  // A value another setting implies is re-read against the rest of the payload (traceability.ts).
  const context = { fields: [...fields.values()], payload: candidate.payload };
  for (const [field, value] of Object.entries(candidate.payload)) {
    if (value === undefined) continue;
    // A top-level field's label is its name; the pointer is only needed when there is an issue to report.
    const claim: FieldClaim = { field, label: field, value, spec: fields.get(field) };
    const entry = Object.hasOwn(provenance, field) ? provenance[field] : undefined;
    // A null or non-object entry says nothing about where the value came from: treat it as missing.
    const issue = isPlainObject(entry) ? checkClaim(claim, entry as FieldProvenance, evidence, context) : missingProvenance(claim);
    if (issue) issues.push(issue);
  }
  return issues;
}

function checkClaim(claim: FieldClaim, entry: FieldProvenance, evidence: BundleEvidence, context: DependencyContext): ValidationIssue | undefined {
  const source = entry.source;
  if (!KNOWN_SOURCES.has(source)) {
    return blocking(claim, `${claim.label} gives an unknown provenance source ${JSON.stringify(source)}`, rebuildHint(claim));
  }
  switch (source) {
    case 'inferred':
      return looseningSafety(claim) ?? {
        path: pathOf(claim),
        code: 'provenance',
        severity: 'warning',
        message: `${claim.label} was not supplied by the user; the builder chose ${showValue(claim.value, claim.spec)}. Check it`,
        suggestion: `approve ${claim.label} if ${showValue(claim.value, claim.spec)} is what the user wants, or edit it${useDefaultHint(claim.spec)}`,
      };
    case 'human_edit':
      return checkHumanEdit(claim, evidence);
    case 'attachment':
      return checkAttachment(claim, evidence);
    case 'schema_default':
      return checkSchemaDefault(claim);
    case 'user_prompt':
      if (entry.conversion !== undefined) {
        if (isDerivedFromUser(evidence, entry.conversion, entry.evidence, claim.spec, claim.value, context)) return undefined;
        // A switch says nothing by itself: a conversion that does not give it from the cited words proves it wrong.
        if (typeof claim.value === 'boolean') return unprovenConversion(claim, entry);
      }
      return typeof claim.value === 'boolean' ? checkUserSwitch(claim, entry, evidence) : checkUserWords(claim, evidence);
    default:
      return assertNever(source, 'provenance source');
  }
}

/** A safety setting the builder chose and moved off its schema default (null says nothing, so it passes). */
function looseningSafety(claim: FieldClaim): ValidationIssue | undefined {
  const spec = claim.spec;
  if (spec?.role !== 'safety' || claim.value === null || (spec.hasDefault && sameJson(spec.default, claim.value))) return undefined;
  return blocking(
    claim,
    `${claim.label} is a safety setting the user did not ask to change; the builder chose ${showValue(claim.value, spec)}`,
    `${spec.hasDefault ? `set ${claim.label} back to the default ${showValue(spec.default, spec)}` : `leave ${claim.label} out`}, or confirm ${showValue(claim.value, spec)} with the user and set it as an edit`,
  );
}

function missingProvenance(claim: FieldClaim): ValidationIssue {
  return blocking(
    claim,
    `${claim.label} has no provenance: nothing says where its value came from`,
    rebuildHint(claim),
  );
}

function checkHumanEdit(claim: FieldClaim, evidence: BundleEvidence): ValidationIssue | undefined {
  const edits = evidence.humanEdits;
  if (Object.hasOwn(edits, claim.field) && sameJson(edits[claim.field], claim.value)) return undefined;
  const actual = Object.hasOwn(edits, claim.field)
    ? `the review edit set it to ${showValue(edits[claim.field], claim.spec)}`
    : `no review edit touched ${claim.label}`;
  return blocking(
    claim,
    `${claim.label} claims to come from a human edit, but ${actual}`,
    Object.hasOwn(edits, claim.field)
      ? `use the edited value ${showValue(edits[claim.field], claim.spec)} for ${claim.label}`
      : rebuildHint(claim),
  );
}

function checkAttachment(claim: FieldClaim, evidence: BundleEvidence): ValidationIssue | undefined {
  const strings = stringsIn(claim.value);
  const stranger = strings.find((url) => !evidence.attachmentUrls.has(url));
  if (strings.length > 0 && stranger === undefined) return undefined;
  const kind = attachmentKind(claim.spec) ?? 'the file';
  return blocking(
    claim,
    stranger === undefined
      ? `${claim.label} claims to come from an attachment, but its value holds no attachment URL`
      : `${claim.label} claims to come from an attachment, but ${showValue(stranger, claim.spec)} is not one of the request's attachments`,
    `attach ${kind} to the request and use its URL for ${claim.label}`,
  );
}

function checkSchemaDefault(claim: FieldClaim): ValidationIssue | undefined {
  const spec = claim.spec;
  if (spec?.hasDefault && sameJson(spec.default, claim.value)) return undefined;
  if (!spec?.hasDefault) {
    return blocking(
      claim,
      `${claim.label} claims the schema default, but the schema declares no default for ${claim.label}`,
      `take ${claim.label} from the request, or leave it out`,
    );
  }
  return blocking(
    claim,
    `${claim.label} claims the schema default ${showValue(spec.default, spec)}, but its value is ${showValue(claim.value, spec)}`,
    `set ${claim.label} to the default ${showValue(spec.default, spec)}, or take it from the request`,
  );
}

function checkUserWords(claim: FieldClaim, evidence: BundleEvidence): ValidationIssue | undefined {
  const words: string[] = [];
  const allNumbers: number[] = [];
  collectUntraceable(claim.value, evidence, words, allNumbers, 0);
  if (words.length === 0 && allNumbers.length === 0) return undefined;
  const hidden = claim.spec?.role === 'secret';
  const unique = [...new Set(words)];
  const numbers = [...new Set(allNumbers)];
  const listed = unique.slice(0, MAX_LISTED_WORDS).map((word) => JSON.stringify(word)).join(', ');
  const more = unique.length > MAX_LISTED_WORDS ? ` and ${unique.length - MAX_LISTED_WORDS} more` : '';
  const reasons = [
    ...(unique.length > 0 ? [hidden ? 'some of its words' : `${plural(unique.length, 'the word', 'the words')} ${listed}${more}`] : []),
    ...(numbers.length > 0 ? [hidden ? 'some of its numbers' : `${plural(numbers.length, 'the number', 'the numbers')} ${numbers.join(', ')}`] : []),
  ];
  return blocking(
    claim,
    `${claim.label} claims to come from the user's words, but the request never mentions ${reasons.join(' or ')}`,
    `keep only what the user wrote in ${claim.label}, or confirm the value with the user and set it as an edit`,
  );
}

/** A boolean the user asked for: the cited phrase is there, and it is all the user's words. */
function checkUserSwitch(claim: FieldClaim, entry: FieldProvenance, evidence: BundleEvidence): ValidationIssue | undefined {
  const phrase = typeof entry.evidence === 'string' ? entry.evidence.trim() : '';
  const missing = phrase === '' ? [] : wordsMissingFromEvidence(evidence, phrase);
  if (phrase !== '' && missing.length === 0) return undefined;
  return blocking(
    claim,
    phrase === ''
      ? `${claim.label} is set to ${String(claim.value)} as the user's wish, but cites nothing the user wrote`
      : `${claim.label} is set to ${String(claim.value)} citing ${JSON.stringify(phrase)}, which the user never wrote`,
    `confirm ${claim.label} with the user and set it as an edit${useDefaultHint(claim.spec)}`,
  );
}

function unprovenConversion(claim: FieldClaim, entry: FieldProvenance): ValidationIssue {
  return blocking(
    claim,
    `${claim.label} is set to ${showValue(claim.value, claim.spec)} by the ${String(entry.conversion)} conversion of ${JSON.stringify(entry.evidence ?? '')}, which does not give that value from the user's words`,
    `confirm ${claim.label} with the user and set it as an edit${useDefaultHint(claim.spec)}`,
  );
}

const MAX_DEPTH = 16;

function collectUntraceable(value: unknown, evidence: BundleEvidence, words: string[], numbers: number[], depth: number): void {
  if (typeof value === 'string') {
    words.push(...wordsMissingFromEvidence(evidence, value));
  } else if (typeof value === 'number') {
    if (!evidenceMentionsNumber(evidence, value)) numbers.push(value);
  } else if (depth < MAX_DEPTH && Array.isArray(value)) {
    for (const item of value) collectUntraceable(item, evidence, words, numbers, depth + 1);
  } else if (depth < MAX_DEPTH && isPlainObject(value)) {
    for (const inner of Object.values(value)) collectUntraceable(inner, evidence, words, numbers, depth + 1);
  }
}

function stringsIn(value: unknown, depth = 0): string[] {
  if (typeof value === 'string') return [value];
  if (depth >= MAX_DEPTH) return [];
  if (Array.isArray(value)) return value.flatMap((item) => stringsIn(item, depth + 1));
  if (isPlainObject(value)) return Object.values(value).flatMap((inner) => stringsIn(inner, depth + 1));
  return [];
}

function plural(count: number, one: string, many: string): string {
  return count === 1 ? one : many;
}

function rebuildHint(claim: FieldClaim): string {
  return `rebuild the payload so ${claim.label} records where it came from, or set ${claim.label} with a review edit`;
}

function blocking(claim: FieldClaim, message: string, suggestion: string): ValidationIssue {
  return { path: pathOf(claim), code: 'provenance', severity: 'blocking', message, suggestion };
}

function pathOf(claim: FieldClaim): string {
  return `/${escapePointer(claim.field)}`;
}

function sameJson(a: unknown, b: unknown): boolean {
  return a === b || (typeof a === 'object' && typeof b === 'object' && canonicalJson(a) === canonicalJson(b));
}
