/**
 * A ModelSchema as an OpenAI Structured Outputs schema (`response_format.json_schema` with `strict: true`),
 * plus the report of what strict mode cannot enforce. The conversion rules are in strict-node.ts; this file
 * names the schema, caches the result per schema hash and lays out the report `vetted extract
 * --strict-report` prints.
 */
import { LRUCache } from 'lru-cache';
import type { FieldRole, ModelSchema } from '../../generated/contracts.ts';
import { escapePointer } from '../../stages/example-quarantine.ts';
import { toStrictObject, type ConversionLog, type JsonObject, type ResidualRule } from './strict-node.ts';

export type { JsonObject, ResidualKind, ResidualRule } from './strict-node.ts';

/** The strict form of one ModelSchema. */
export interface StrictSchema {
  /** `json_schema.name`: letters, digits, `_` and `-`, at most 64 characters (an API rule). */
  name: string;
  /** The schema sent with `strict: true`. */
  schema: JsonObject;
  /** Rules of the ModelSchema strict mode does not enforce; AJV enforces them on the mapped payload. */
  residualRules: ResidualRule[];
  /** Pointers whose values travel as JSON-encoded strings (untyped values, free-form objects). */
  jsonEncoded: string[];
  /** The ModelSchema this was made from. */
  schemaHash: string;
}

const cache = new LRUCache<string, StrictSchema>({ max: 500 });

/**
 * Converts (or finds in the per-process cache) the strict schema of a ModelSchema. Pure: the result depends
 * only on the ModelSchema, which never holds an example value, so neither does the strict schema.
 */
export function toStrictSchema(modelSchema: ModelSchema): StrictSchema {
  const cached = cache.get(modelSchema.schemaHash);
  if (cached) return cached;
  const log: ConversionLog = { residual: [], jsonEncoded: [], withheldDefaults: withheldDefaults(modelSchema) };
  const schema = toStrictObject(modelSchema.jsonSchema, '', log);
  const strict: StrictSchema = {
    name: schemaName(modelSchema.model),
    schema,
    residualRules: log.residual,
    jsonEncoded: log.jsonEncoded,
    schemaHash: modelSchema.schemaHash,
  };
  cache.set(modelSchema.schemaHash, strict);
  return strict;
}

/** The report printed by `vetted extract --strict-report`: the schema as sent, and what AJV still checks. */
export interface StrictReport {
  model: string | null;
  version: string | null;
  responseFormat: { type: 'json_schema'; json_schema: { name: string; strict: true; schema: JsonObject } };
  residualRules: Array<ResidualRule & { enforcedBy: 'ajv' }>;
  jsonEncoded: string[];
}

export function strictReport(modelSchema: ModelSchema): StrictReport {
  const strict = toStrictSchema(modelSchema);
  return {
    model: modelSchema.model,
    version: modelSchema.version,
    responseFormat: responseFormat(strict),
    residualRules: strict.residualRules.map((rule) => ({ ...rule, enforcedBy: 'ajv' })),
    jsonEncoded: strict.jsonEncoded,
  };
}

/** The `response_format` request parameter for a strict schema. */
export function responseFormat(strict: StrictSchema): StrictReport['responseFormat'] {
  return { type: 'json_schema', json_schema: { name: strict.name, strict: true, schema: strict.schema } };
}

/**
 * Root fields whose default the LLM is not told: a secret's, and a non-empty text default of a prompt field
 * (a model's sample prompt is not the user's request, and the builder never applies it; candidate.ts).
 */
function withheldDefaults(modelSchema: ModelSchema): Set<string> {
  const withheld = modelSchema.fields.filter(
    (field) =>
      field.hasDefault &&
      (field.role === 'secret' || (PROMPT_ROLES.has(field.role) && typeof field.default === 'string' && field.default.trim() !== '')),
  );
  return new Set(withheld.map((field) => `/${escapePointer(field.name)}`));
}

const PROMPT_ROLES: ReadonlySet<FieldRole> = new Set(['prompt', 'negative_prompt', 'system_prompt']);

function schemaName(model: string | null): string {
  const cleaned = (model ?? 'model_input').replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '');
  return (cleaned || 'model_input').slice(0, 64);
}
