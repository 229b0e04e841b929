/**
 * How a task's payload is laid out for reading, from its type's JSON Schema: the order of the fields and their
 * labels. Pure, so the readable view and the read-only form agree (and a unit test pins both).
 */

export type Schema = Record<string, unknown>;

export function objectOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** `reported_symptom` → "Reported symptom"; `lgvId` → "Lgv id". */
export function fieldLabel(name: string, schema?: Schema): string {
  if (typeof schema?.title === 'string' && schema.title.trim()) return schema.title;
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_\-.]+/g, ' ').trim().toLowerCase();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : name;
}

/**
 * The schema's fields in reading order: the required ones in the order `required` lists them, then the others.
 * A task type's schema is stored as jsonb, which keeps array order but not the order of an object's keys, so
 * `required` is the only order the type's author gave that survives.
 */
export function schemaOrder(schema?: Schema): string[] {
  const declared = Object.keys(objectOf(schema?.properties) ?? {});
  const required = Array.isArray(schema?.required) ? schema.required.filter((key): key is string => typeof key === 'string' && declared.includes(key)) : [];
  return [...required, ...declared.filter((key) => !required.includes(key))];
}

/** The object's keys: the schema's order first, then whatever else the payload carries. */
export function orderedKeys(value: Record<string, unknown>, schema?: Schema): string[] {
  const declared = schemaOrder(schema);
  return [...declared.filter((key) => key in value), ...Object.keys(value).filter((key) => !declared.includes(key))];
}
