/**
 * The Validator stage: a deterministic verdict on a candidate payload, as a sorted list of ValidationIssues.
 *
 * Four checks, each in its own file:
 * - schema (schema-issues.ts): AJV against the model's JSON Schema, compiled once per schema hash;
 * - the published schema (published-issues.ts): AJV against the model's own published input schema too, the
 *   final guard (a field it contradicts itself on is `schema_unsatisfiable`);
 * - provenance (provenance-issues.ts): every field says where it came from, and the claim holds against the bundle;
 * - example leaks (../leak-firewall.ts): no quarantined example value the user did not supply.
 * The bundle's evidence is collected once per call and shared by the last two.
 */
import type {
  CandidatePayload,
  FieldSpec,
  ModelSchema,
  RequestBundle,
  ValidationIssue,
} from '../../generated/contracts.ts';
import { collectBundleEvidence, type BundleEvidence } from '../bundle-evidence.ts';
import type { ExampleQuarantine } from '../example-quarantine.ts';
import { findExampleLeaks } from '../leak-firewall.ts';
import { CompiledSchemaCache } from './compiled-schema.ts';
import { leakIssues } from './leak-issues.ts';
import { provenanceIssues } from './provenance-issues.ts';
import { publishedIssues } from './published-issues.ts';
import { schemaIssues } from './schema-issues.ts';
import { isDerivedFromUser } from './traceability.ts';

export { CompiledSchemaCache, SCHEMA_CACHE_SIZE, type CompiledSchema } from './compiled-schema.ts';

export interface ValidatePayloadInput {
  candidate: CandidatePayload;
  schema: ModelSchema;
  bundle: RequestBundle;
  /** The model's quarantined examples; only the leak firewall reads them. */
  quarantine: ExampleQuarantine;
}

// One compiled-validator cache per process: compiled AJV functions are pure, so sharing them between runs
// is safe, and compiling is the only expensive step of a validation.
const sharedCache = new CompiledSchemaCache();

/**
 * Every reason the candidate may not run as it is, sorted by path, then code, then message. Deterministic:
 * the same input always yields the same list. Schema, failed-claim and leak issues are blocking; an
 * inferred field is a warning. Throws SCHEMA_UNSUPPORTED when the model's schema cannot be compiled.
 * @param cache where compiled schemas live; the process-wide cache unless a test or a tool brings its own.
 */
export function validatePayload(input: ValidatePayloadInput, cache: CompiledSchemaCache = sharedCache): ValidationIssue[] {
  const { candidate, schema, bundle, quarantine } = input;
  const compiled = cache.compiledFor(schema);
  const evidence = collectBundleEvidence(bundle);
  const findings = findExampleLeaks(candidate.payload, quarantine, { schema, bundle: evidence, derivedFields: derivedFields(candidate, compiled.fields, evidence) });
  const strict = schemaIssues(compiled, candidate.payload);
  const issues = [
    ...strict,
    ...onlyNews(publishedIssues(compiled, candidate.payload), strict),
    ...provenanceIssues(candidate, compiled.fields, evidence),
    ...leakIssues(findings, compiled.fields),
    ...unusedRequestIssues(candidate),
  ];
  return dedupe(issues).sort(compareIssues);
}

/**
 * The fields whose value the user's words give by a recorded conversion, re-run here: the leak firewall need not
 * look for an example in them (`al doble` → 2 is the user's 2 even where the example's scale is 2 too).
 */
export function derivedFields(candidate: CandidatePayload, fields: ReadonlyMap<string, FieldSpec>, evidence: BundleEvidence): Set<string> {
  const derived = new Set<string>();
  // A malformed candidate (no provenance) is refused by the checks around this; it derives nothing.
  if (candidate.provenance === null || typeof candidate.provenance !== 'object') return derived;
  const context = { fields: [...fields.values()], payload: candidate.payload };
  for (const [field, entry] of Object.entries(candidate.provenance)) {
    if (entry?.source !== 'user_prompt' || entry.conversion === undefined) continue;
    if (isDerivedFromUser(evidence, entry.conversion, entry.evidence, fields.get(field), candidate.payload[field], context)) derived.add(field);
  }
  return derived;
}

/**
 * The final guard alone, for the execute stage: the issues the model's published input schema raises against
 * the payload about to run (none for a model known only by its example). Whatever a person approved, even over
 * blocking issues with the override permission, a payload the published schema rejects does not execute.
 */
export function publishedSchemaIssues(schema: ModelSchema, payload: unknown, cache: CompiledSchemaCache = sharedCache): ValidationIssue[] {
  return publishedIssues(cache.compiledFor(schema), payload).sort(compareIssues);
}

/**
 * The published schema's complaints about fields the strict schema has already flagged say the same thing
 * twice (`scale must be ≤ 10`); a contradiction in the published schema is news either way.
 */
function onlyNews(published: ValidationIssue[], strict: readonly ValidationIssue[]): ValidationIssue[] {
  if (published.length === 0) return published;
  const flagged = new Set(strict.map((issue) => issue.path.split('/')[1]));
  return published.filter((issue) => issue.code === 'schema_unsatisfiable' || !flagged.has(issue.path.split('/')[1]));
}

/** What the builder recognised in the request but did not place: a warning on the run, under every policy. */
function unusedRequestIssues(candidate: CandidatePayload): ValidationIssue[] {
  return (candidate.unusedRequest ?? []).map((item) => ({
    path: '',
    code: 'unused_request',
    severity: 'warning',
    message: `"${item.phrase}" from the request is not in the payload: ${item.reason}`,
    suggestion: 'set the field it asks for with an edit, or approve the payload without it',
  }));
}

/** Path, then code, then message, by code units (never locale-dependent). */
export function compareIssues(a: ValidationIssue, b: ValidationIssue): number {
  return compare(a.path, b.path) || compare(a.code, b.code) || compare(a.message, b.message);
}

/** True when any issue must be resolved before the payload may run. */
export function hasBlockingIssues(issues: readonly ValidationIssue[]): boolean {
  return issues.some((issue) => issue.severity === 'blocking');
}

function dedupe(issues: ValidationIssue[]): ValidationIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.path}\u0000${issue.code}\u0000${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
