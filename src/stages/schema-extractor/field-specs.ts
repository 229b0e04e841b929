/**
 * One FieldSpec per property, in the model author's order (`x-order`), each with its role: the flat view
 * builders and reviewers read instead of walking the JSON Schema.
 */
import type { FieldSpec, FieldType } from '../../generated/contracts.ts';
import { classifyRole } from './field-roles.ts';
import type { RoleTraits } from './field-roles.ts';
import { isPlainObject, typeList } from './json.ts';
import type { JsonObject } from './json.ts';

/** A converted property beside its source form (which still carries `x-cog-secret` and dropped formats). */
export interface PropertyEntry {
  name: string;
  node: JsonObject;
  raw: unknown;
}

/**
 * Property names sorted by `x-order`; properties without one follow, in declaration order. The sort is
 * stable, so equal `x-order`s also keep declaration order.
 */
export function orderedNames(properties: Record<string, JsonObject>): string[] {
  const names = Object.keys(properties);
  const rank = (name: string): number => {
    const order = properties[name]?.['x-order'];
    return typeof order === 'number' ? order : Number.POSITIVE_INFINITY;
  };
  return names
    .map((name, index) => ({ name, index, order: rank(name) }))
    .sort((a, b) => a.order - b.order || a.index - b.index)
    .map((entry) => entry.name);
}

export function buildFieldSpecs(entries: readonly PropertyEntry[], required: ReadonlySet<string>): FieldSpec[] {
  return entries.map((entry, order) => buildFieldSpec(entry, order, required.has(entry.name)));
}

function buildFieldSpec({ name, node, raw }: PropertyEntry, order: number, required: boolean): FieldSpec {
  const types = typeList(node);
  const presets = presetNames(node);
  // A union of a size object and preset names is read as the object, with its presets beside it.
  const type = fieldType(presets === undefined ? types : types.filter((t) => t !== 'string'));
  const items = isPlainObject(node.items) ? node.items : undefined;
  const hasDefault = Object.hasOwn(node, 'default');
  const spec: FieldSpec = { name, role: 'other', type, required, nullable: types.includes('null'), order, hasDefault };
  if (typeof node.title === 'string') spec.title = node.title;
  if (typeof node.description === 'string') spec.description = node.description;
  if (types.includes('array')) spec.itemType = items === undefined ? 'any' : fieldType(typeList(items));
  const format = typeof node.format === 'string' ? node.format : typeof items?.format === 'string' ? items.format : undefined;
  if (format !== undefined) spec.format = format;
  if (Array.isArray(node.enum)) spec.enum = structuredClone(node.enum);
  if (presets !== undefined) spec.presets = presets;
  if (typeof node.minimum === 'number') spec.minimum = node.minimum;
  if (typeof node.maximum === 'number') spec.maximum = node.maximum;
  if (spec.hasDefault) spec.default = structuredClone(node.default);
  spec.role = classifyRole(roleTraits(spec, raw));
  return spec;
}

/**
 * The names a field that is not only a string also takes: the string-enum branch of its union beside branches
 * of other types (fal's `image_size`: a `{width, height}` object, or `square_hd`, `landscape_16_9`, …).
 */
function presetNames(node: JsonObject): string[] | undefined {
  if (!Array.isArray(node.anyOf)) return undefined;
  const branches = node.anyOf.filter(isPlainObject);
  if (!branches.some((branch) => branch.type !== 'string' && branch.type !== 'null')) return undefined;
  const names = branches.flatMap((branch) => (branch.type === 'string' && Array.isArray(branch.enum) ? branch.enum.filter((name): name is string => typeof name === 'string') : []));
  return names.length > 0 ? names : undefined;
}

/** The first non-null type; a field that names none (or only null) accepts anything. */
function fieldType(types: readonly string[]): FieldType {
  const first = types.find((t) => t !== 'null');
  return first === undefined ? 'any' : (first as FieldType);
}

function roleTraits(spec: FieldSpec, raw: unknown): RoleTraits {
  const source = isPlainObject(raw) ? raw : {};
  const items = isPlainObject(source.items) ? source.items : {};
  const sourceFormat = [source.format, items.format].find((f): f is string => typeof f === 'string');
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    type: spec.type,
    itemType: spec.itemType,
    format: sourceFormat ?? spec.format,
    secret: source['x-cog-secret'] === true || source.writeOnly === true,
  };
}
