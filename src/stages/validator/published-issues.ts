/**
 * The final guard: the payload checked against the model's *published* input schema as well as our strict
 * one (ModelSchema.publishedSchema, compiled beside it). Our strict schema repairs what it can read faithfully;
 * whatever the published schema still rejects would be refused by, or break, the model's server, so it is a
 * blocking issue: such a payload never executes (the execute stage asks again, see published-guard.ts).
 *
 * - A field the published schema contradicts itself on (FieldSpec.unsatisfiable: no value fits) is
 *   `schema_unsatisfiable`, naming the contradiction: leave the field out and the model uses its own default.
 * - Any other rejection is `constraint`, in AJV's words, prefixed "the model's published input schema".
 * `required` is not repeated here: the strict schema requires the same fields and says so already.
 */
import type { ErrorObject } from 'ajv';
import type { ValidationIssue } from '../../generated/contracts.ts';
import type { CompiledSchema } from './compiled-schema.ts';
import { defaultHint, fieldLabel, showValue } from './describe.ts';

/** Blocking issues for every field of the payload the published schema rejects; one per field. */
export function publishedIssues(compiled: CompiledSchema, payload: unknown): ValidationIssue[] {
  const validate = compiled.published;
  if (!validate || validate(payload)) return [];
  const issues = new Map<string, ValidationIssue>();
  for (const error of validate.errors ?? []) {
    if (error.keyword === 'required') continue;
    const field = topLevelField(error.instancePath);
    if (field === undefined || issues.has(field)) continue;
    issues.set(field, describe(error, field, compiled, payload));
  }
  return [...issues.values()];
}

function describe(error: ErrorObject, field: string, compiled: CompiledSchema, payload: unknown): ValidationIssue {
  const spec = compiled.fields.get(field);
  const path = `/${field.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  const label = fieldLabel(path);
  const value = typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>)[field] : undefined;
  if (spec?.unsatisfiable) {
    return {
      path,
      code: 'schema_unsatisfiable',
      severity: 'blocking',
      message: `${label} cannot be set: the model's published schema contradicts itself (${spec.unsatisfiable}), so no value is accepted, ${showValue(value, spec)} included`,
      suggestion: `remove ${label} (the model then uses its own default), or ask the model's owner to fix its schema`,
    };
  }
  const reason = (error.message ?? 'is not valid').replace('must NOT', 'must not');
  const where = error.instancePath === path ? '' : ` at ${error.instancePath}`;
  return {
    path,
    code: 'constraint',
    severity: 'blocking',
    message: `the model's published input schema rejects ${label}${where}: it ${reason}, got ${showValue(value, spec)}`,
    suggestion: `change ${label} to a value the model's published schema accepts${defaultHint(spec)}`,
  };
}

function topLevelField(instancePath: string): string | undefined {
  const first = instancePath.split('/')[1];
  return first === undefined || first === '' ? undefined : first.replace(/~1/g, '/').replace(/~0/g, '~');
}
