/**
 * Checks a reviewer's field edits against the ModelSchema before they touch a payload: only fields of the
 * schema, each value valid for its own property schema. Invalid edits are refused, never repaired.
 */
import type { ValidateFunction } from 'ajv';
import { LRUCache } from 'lru-cache';
import { VettedError } from '../errors.ts';
import type { ModelSchema } from '../generated/contracts.ts';
import { createPayloadAjv } from '../schema/ajv.ts';
import { describeAjvErrors } from '../schema/contracts.ts';

const ajv = createPayloadAjv();
const propertyValidators = new LRUCache<string, ValidateFunction>({ max: 5000 });

function propertySchemas(schema: ModelSchema): Record<string, unknown> {
  const properties = (schema.jsonSchema as { properties?: Record<string, unknown> }).properties;
  return properties ?? {};
}

function validatorFor(schema: ModelSchema, field: string): ValidateFunction {
  const key = `${schema.schemaHash}/${field}`;
  let validate = propertyValidators.get(key);
  if (!validate) {
    validate = ajv.compile(propertySchemas(schema)[field] as object);
    propertyValidators.set(key, validate);
  }
  return validate;
}

/**
 * @returns the edits, unchanged, when every one is valid. A `null` value means "leave this field out" and
 *   is allowed only for fields the schema does not require.
 * @throws VettedError EDIT_INVALID naming `edits.<field>` and the reason.
 */
export function assertValidEdits(schema: ModelSchema, edits: Record<string, unknown>): Record<string, unknown> {
  const names = Object.keys(edits);
  if (names.length === 0) throw new VettedError('EDIT_INVALID', 'edits must name at least one field', { field: 'edits' });
  const known = propertySchemas(schema);
  const required = new Set(schema.fields.filter((f) => f.required).map((f) => f.name));
  for (const name of names) {
    const field = `edits.${name}`;
    if (!Object.hasOwn(known, name)) {
      throw new VettedError('EDIT_INVALID', `${field}: the model has no field "${name}"`, {
        field,
        details: { knownFields: Object.keys(known) },
      });
    }
    const value = edits[name];
    if (value === null) {
      if (required.has(name)) throw new VettedError('EDIT_INVALID', `${field}: the field is required and cannot be removed`, { field });
      continue;
    }
    const validate = validatorFor(schema, name);
    if (!validate(value)) {
      const [first] = describeAjvErrors(validate.errors ?? []);
      throw new VettedError('EDIT_INVALID', `${field} ${first?.message ?? 'is not valid'}`, { field });
    }
  }
  return edits;
}

/**
 * The edits a person made that still fit `schema` (each field known and its value valid), and the names of
 * those that do not: what a run keeps when it is sent to another model.
 */
export function editsThatFit(schema: ModelSchema, edits: Record<string, unknown>): { kept: Record<string, unknown>; dropped: string[] } {
  const kept = new Map<string, unknown>();
  const dropped: string[] = [];
  for (const [name, value] of Object.entries(edits)) {
    try {
      assertValidEdits(schema, { [name]: value });
      kept.set(name, value);
    } catch {
      dropped.push(name);
    }
  }
  return { kept: Object.fromEntries(kept), dropped };
}
