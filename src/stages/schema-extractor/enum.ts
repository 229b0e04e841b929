/**
 * Enums, made consistent with their declared type. Replicate has enums whose members are strings while
 * the property says `integer` (laion-ai/laionide-v2 `side_x`); such members are converted when every one
 * converts without loss, with a warning, and the schema is refused otherwise.
 */
import { jsonEqual, jsonTypeOf } from './json.ts';
import type { WarningList } from './warnings.ts';
import { unsupported } from './warnings.ts';

const INTEGER_TEXT = /^-?(?:0|[1-9]\d*)$/;
const NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

export interface ConvertedEnum {
  members: unknown[];
  /** The declared types, or the members' own types when the node declared none. */
  types: string[];
}

export function convertEnum(raw: unknown, declared: readonly string[], path: string, warnings: WarningList): ConvertedEnum {
  if (!Array.isArray(raw) || raw.length === 0) throw unsupported('enum', path, 'enum is not a non-empty array');
  const types = declared.length > 0 ? [...declared] : inferTypes(raw);
  let coerced = 0;
  const members = raw.map((member) => {
    if (fitsTypes(member, types)) return typeof member === 'object' && member !== null ? structuredClone(member) : member;
    const converted = coerce(member, types);
    if (converted === undefined) {
      throw unsupported('enum', path, `a member of type ${jsonTypeOf(member)} does not match type ${types.join('|')}`);
    }
    coerced += 1;
    return converted;
  });
  if (coerced > 0) warnings.add(path, 'enum_coerced', `${coerced} enum member(s) converted to type ${types.join('|')}`);
  const unique = members.filter((member, i) => members.findIndex((other) => jsonEqual(other, member)) === i);
  if (unique.length < members.length) warnings.add(path, 'enum_deduplicated', 'duplicate enum members removed');
  if (types.includes('null') && !unique.includes(null)) unique.push(null);
  return { members: unique, types };
}

function inferTypes(members: readonly unknown[]): string[] {
  const types = [...new Set(members.map(jsonTypeOf))];
  // 1 and 1.5 in one enum are both numbers; 'integer' alone would reject 1.5.
  return types.includes('number') ? types.filter((t) => t !== 'integer') : types;
}

function fitsTypes(member: unknown, types: readonly string[]): boolean {
  const actual = jsonTypeOf(member);
  return types.includes(actual) || (actual === 'integer' && types.includes('number'));
}

/** The member converted to the first declared type it converts to without loss, or undefined. */
function coerce(member: unknown, types: readonly string[]): unknown {
  for (const type of types) {
    const converted = coerceTo(member, type);
    if (converted !== undefined) return converted;
  }
  return undefined;
}

function coerceTo(member: unknown, type: string): unknown {
  if (typeof member === 'string') {
    if (type === 'integer' && INTEGER_TEXT.test(member) && Number.isSafeInteger(Number(member))) return Number(member);
    if (type === 'number' && NUMBER_TEXT.test(member) && Number.isFinite(Number(member))) return Number(member);
    if (type === 'boolean' && /^(?:true|false)$/i.test(member)) return member.toLowerCase() === 'true';
    return undefined;
  }
  if (type === 'string' && (typeof member === 'number' || typeof member === 'boolean')) return String(member);
  return undefined;
}
