/**
 * What the reading tests share: a request of one prompt, the heuristic builder's candidate for it, the fields it
 * set from the request, hand-written schemas in the ModelSchema contract, and a few public catalog models by a
 * short name, each with its own example quarantined as in production.
 */
import { buildHeuristicPayload } from '../../src/builders/heuristic-builder.ts';
import type { CandidatePayload, FieldRole, FieldSpec, FieldType, ModelSchema, RequestBundle, ValidationIssue } from '../../src/generated/contracts.ts';
import type { ExampleQuarantine } from '../../src/stages/example-quarantine.ts';
import { validatePayload } from '../../src/stages/validator/index.ts';
import { loadCatalogModels } from './replicate-catalog.ts';

/** How long a file's first catalog load may take: it parses and extracts the whole catalog (slow on a busy machine). */
export const CATALOG_LOAD_MS = 180_000;

/** A request of `prompt` alone: no turns, files, profile, edits or flags unless `extra` gives them. */
export function bundleOf(prompt: string, extra: Partial<RequestBundle> = {}): RequestBundle {
  return { prompt, conversation: [], attachments: [], userProfile: {}, humanEdits: {}, safetyFlags: [], ...extra };
}

/** The heuristic builder's candidate for `prompt` (and `extra`) on `schema`. */
export function buildOn(schema: ModelSchema, prompt: string, extra: Partial<RequestBundle> = {}): CandidatePayload {
  return buildHeuristicPayload({ bundle: bundleOf(prompt, extra), schema });
}

/** The fields set from the request (not the schema's defaults). */
export function placed(candidate: CandidatePayload): Record<string, unknown> {
  return Object.fromEntries(Object.entries(candidate.payload).filter(([field]) => candidate.provenance[field]?.source !== 'schema_default'));
}

/** The phrases the builder reported as unplaced, in its order. */
export function unplacedPhrases(candidate: CandidatePayload): string[] {
  return (candidate.unusedRequest ?? []).map((entry) => entry.phrase);
}

/** A field of a hand-written schema: optional, not nullable, without a default unless `extra` says so. */
export function field(name: string, role: FieldRole, type: FieldType, extra: Partial<FieldSpec> = {}): FieldSpec {
  return { name, role, type, required: false, nullable: false, order: 0, hasDefault: false, ...extra };
}

/** A schema of `fields` in their order, each one's type, options, bounds, format and default in its JSON Schema node. */
export function schemaOf(fields: FieldSpec[], model = 'test/reading'): ModelSchema {
  const ordered = fields.map((spec, order) => ({ ...spec, order }));
  const properties = Object.fromEntries(ordered.map((spec) => [spec.name, propertyOf(spec)]));
  return {
    schemaHash: 'e'.repeat(64),
    model,
    version: null,
    source: 'replicate_version',
    jsonSchema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      additionalProperties: false,
      required: ordered.filter((spec) => spec.required).map((spec) => spec.name),
      properties,
    },
    fields: ordered,
    warnings: [],
  };
}

function propertyOf(spec: FieldSpec): Record<string, unknown> {
  return {
    type: spec.type,
    ...(spec.enum ? { enum: spec.enum } : {}),
    ...(spec.minimum !== undefined ? { minimum: spec.minimum } : {}),
    ...(spec.maximum !== undefined ? { maximum: spec.maximum } : {}),
    ...(spec.format ? { format: spec.format } : {}),
    ...(spec.hasDefault ? { default: spec.default } : {}),
  };
}

/** A candidate built and validated: what the builder placed, and what the validator still blocks on. */
export interface CheckedBuild {
  candidate: CandidatePayload;
  /** The blocking issues' messages, a missing required file aside: a test request attaches none. */
  blocking: string[];
}

/**
 * A few public catalog models under short names (`{ image: 'black-forest-labs/flux-schnell' }`). Call `load()` in
 * the file's `beforeAll` with {@link CATALOG_LOAD_MS}; then build, read and validate against them by name.
 */
export class CatalogModels<Name extends string> {
  readonly #schemas = new Map<Name, ModelSchema>();
  readonly #quarantines = new Map<Name, ExampleQuarantine>();

  constructor(readonly names: Readonly<Record<Name, string>>) {}

  /** Extracts each model's schema and quarantines its example; throws naming a model the catalog lacks. */
  load(): void {
    loadCatalogModels(this.names, this.#schemas, this.#quarantines);
  }

  schema(name: Name): ModelSchema {
    const schema = this.#schemas.get(name);
    if (!schema) throw new Error(`${this.names[name]} is not loaded: call load() in beforeAll`);
    return schema;
  }

  quarantine(name: Name): ExampleQuarantine {
    const quarantine = this.#quarantines.get(name);
    if (!quarantine) throw new Error(`${this.names[name]} is not loaded: call load() in beforeAll`);
    return quarantine;
  }

  fields(name: Name): FieldSpec[] {
    return this.schema(name).fields;
  }

  /** One field of the model; throws naming the model when it has none of that name. */
  field(name: Name, fieldName: string): FieldSpec {
    const found = this.fields(name).find((candidate) => candidate.name === fieldName);
    if (!found) throw new Error(`${this.names[name]} has no ${fieldName}`);
    return found;
  }

  build(name: Name, prompt: string, extra: Partial<RequestBundle> = {}): CandidatePayload {
    return buildOn(this.schema(name), prompt, extra);
  }

  /** Every issue the validator finds in `candidate`, against the request it came from. */
  issues(name: Name, candidate: CandidatePayload, bundle: RequestBundle): ValidationIssue[] {
    return validatePayload({ candidate, schema: this.schema(name), bundle, quarantine: this.quarantine(name) });
  }

  /** The validator's blocking messages for `candidate` against a request of `prompt`, a missing required file aside. */
  blocking(name: Name, prompt: string, candidate: CandidatePayload, extra: Partial<RequestBundle> = {}): string[] {
    return blockingMessages(this.issues(name, candidate, bundleOf(prompt, extra)));
  }

  /** Built and validated against the same request. */
  checked(name: Name, prompt: string, extra: Partial<RequestBundle> = {}): CheckedBuild {
    const candidate = this.build(name, prompt, extra);
    return { candidate, blocking: this.blocking(name, prompt, candidate, extra) };
  }
}

/** The blocking issues' messages, a missing required file aside. */
export function blockingMessages(issues: readonly ValidationIssue[]): string[] {
  return issues.filter((issue) => issue.severity === 'blocking' && issue.code !== 'missing_required').map((issue) => issue.message);
}
