/**
 * Numeric and string constraints, translated to draft-07. OpenAPI 3.0's boolean `exclusiveMinimum` becomes
 * draft-07's numeric form; pydantic's leaked `ge`/`le`/`gt`/`lt` become bounds, with a warning. A keyword
 * that does not apply to the node's type is dropped with a warning, because AJV's strict mode rejects it.
 */
import { KEYWORDS_BY_GROUP, PYDANTIC_BOUNDS } from './keywords.ts';
import type { JsonObject } from './json.ts';
import type { WarningList } from './warnings.ts';
import { unsupported } from './warnings.ts';
import { isLinearPattern } from '../../schema/ajv.ts';

type Group = keyof typeof KEYWORDS_BY_GROUP;

/** Which keyword groups apply to a node of these types. */
export function applicableGroups(types: readonly string[]): Set<Group> {
  const groups = new Set<Group>();
  if (types.includes('integer') || types.includes('number')) groups.add('numeric');
  if (types.includes('string')) groups.add('string');
  if (types.includes('array')) groups.add('array');
  if (types.includes('object')) groups.add('object');
  return groups;
}

/** Warns about (and so drops) type-specific keywords that do not apply to the node's types. */
export function dropInapplicable(node: JsonObject, types: readonly string[], path: string, warnings: WarningList): void {
  const groups = applicableGroups(types);
  const described = types.length === 0 ? 'an untyped property' : `type ${types.join('|')}`;
  for (const [group, keywords] of Object.entries(KEYWORDS_BY_GROUP) as [Group, readonly string[]][]) {
    if (groups.has(group)) continue;
    for (const keyword of keywords) {
      // `format` has its own policy (formats.ts), which also covers formats on other types.
      if (keyword === 'format' || !Object.hasOwn(node, keyword)) continue;
      warnings.add(path, 'keyword_dropped', `"${keyword}" does not apply to ${described}; dropped`);
    }
  }
  for (const keyword of Object.keys(PYDANTIC_BOUNDS)) {
    if (!Object.hasOwn(node, keyword) || groups.has('numeric')) continue;
    warnings.add(path, 'keyword_dropped', `"${keyword}" does not apply to ${described}; dropped`);
  }
}

/** minimum/maximum/exclusive*, multipleOf, and the pydantic spellings. */
export function applyNumeric(node: JsonObject, out: JsonObject, path: string, warnings: WarningList): void {
  for (const keyword of ['minimum', 'maximum', 'multipleOf'] as const) copyNumber(node, out, keyword, path, warnings);
  for (const [exclusive, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    const value = node[exclusive];
    if (typeof value === 'number') out[exclusive] = value;
    else if (value === true && typeof out[bound] === 'number') {
      // OpenAPI 3.0: `minimum: 0, exclusiveMinimum: true` means > 0, which draft-07 writes as exclusiveMinimum: 0.
      out[exclusive] = out[bound];
      delete out[bound];
    } else if (value !== undefined && value !== false) {
      warnings.add(path, 'keyword_dropped', `"${exclusive}" has no bound to apply to; dropped`);
    }
  }
  for (const [pydantic, keyword] of Object.entries(PYDANTIC_BOUNDS)) {
    const value = node[pydantic];
    if (value === undefined) continue;
    if (typeof value !== 'number' || Object.hasOwn(out, keyword)) {
      warnings.add(path, 'keyword_dropped', `"${pydantic}" ignored: not a number or "${keyword}" is already set`);
      continue;
    }
    out[keyword] = value;
    warnings.add(path, 'bound_converted', `pydantic "${pydantic}" read as "${keyword}"`);
  }
  if (typeof out.multipleOf === 'number' && out.multipleOf <= 0) {
    delete out.multipleOf;
    warnings.add(path, 'keyword_dropped', '"multipleOf" must be greater than 0; dropped');
  }
  // No value fits `minimum: 10, maximum: 1`: every run would park on a range issue nobody can fix.
  const low = typeof out.minimum === 'number' ? out.minimum : out.exclusiveMinimum;
  const high = typeof out.maximum === 'number' ? out.maximum : out.exclusiveMaximum;
  if (typeof low === 'number' && typeof high === 'number' && low > high) {
    throw unsupported('bounds', path, `the lower bound ${low} is above the upper bound ${high}, so no value fits`);
  }
}

/** minLength/maxLength/pattern; the pattern must be a JavaScript (Unicode-mode) regular expression. */
export function applyString(node: JsonObject, out: JsonObject, path: string, warnings: WarningList): void {
  for (const keyword of ['minLength', 'maxLength'] as const) copyCount(node, out, keyword, path, warnings);
  const pattern = node.pattern;
  if (pattern === undefined) return;
  if (typeof pattern !== 'string') throw unsupported('pattern', path, 'pattern is not a string');
  try {
    new RegExp(pattern, 'u');
  } catch {
    // The validator would run this pattern with JavaScript semantics; a Python-only regex cannot be honoured.
    throw unsupported('pattern', path, 'not a valid JavaScript regular expression');
  }
  // The payload validator runs patterns in RE2 (linear time; src/schema/ajv.ts), which has no lookaround or
  // backreferences. Such a pattern is dropped; the model still checks the value when it runs.
  if (!isLinearPattern(pattern)) {
    warnings.add(path, 'keyword_dropped', '"pattern" uses lookaround or backreferences, which the linear-time regex engine cannot run; dropped');
    return;
  }
  out.pattern = pattern;
}

/** minItems/maxItems/uniqueItems (items themselves are converted by the caller). */
export function applyArrayCounts(node: JsonObject, out: JsonObject, path: string, warnings: WarningList): void {
  for (const keyword of ['minItems', 'maxItems'] as const) copyCount(node, out, keyword, path, warnings);
  if (typeof node.uniqueItems === 'boolean') out.uniqueItems = node.uniqueItems;
}

function copyNumber(node: JsonObject, out: JsonObject, keyword: string, path: string, warnings: WarningList): void {
  const value = node[keyword];
  if (typeof value === 'number' && Number.isFinite(value)) out[keyword] = value;
  else if (value !== undefined) warnings.add(path, 'keyword_dropped', `"${keyword}" is not a number; dropped`);
}

export function copyCount(node: JsonObject, out: JsonObject, keyword: string, path: string, warnings: WarningList): void {
  const value = node[keyword];
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) out[keyword] = value;
  else if (value !== undefined) warnings.add(path, 'keyword_dropped', `"${keyword}" is not a non-negative integer; dropped`);
}
