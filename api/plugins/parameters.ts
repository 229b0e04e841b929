/**
 * The one parameter layer: every route's query string and path parameters are parsed here, from the
 * route's schema (api/params.ts has the building blocks), before AJV checks them.
 *
 * - A parameter the route does not name is refused, naming it (routes with no query schema take none).
 * - Numbers are digits only: `1e309`, `Infinity`, `0x10` and `1_000` are refused, not read as numbers, and
 *   a numeric parameter must declare `minimum` and `maximum` (the app does not start otherwise), so nothing
 *   unbounded reaches a query.
 * - `true`/`false` are booleans; a parameter that may repeat is a list, one that may not is refused when
 *   repeated.
 * - A `date-time` must be a day that exists, with no leap second, in a year PostgreSQL and JavaScript both
 *   take: the same guard for every date parameter of every route.
 */
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { VettedError } from '../../src/errors.ts';
import { createAjv } from '../../src/schema/ajv.ts';

type Schema = Record<string, unknown>;
type Part = 'querystring' | 'params';
type Coerce = (raw: string) => unknown;

export type ParameterValidator = (data: unknown) => { value: Record<string, unknown> } | { error: Error };

/** The AJV instance for parameters: no coercion (the layer does it, strictly), defaults filled, real dates. */
export function createParameterAjv(): Ajv {
  const ajv = createAjv({ coerceTypes: false, removeAdditional: false, useDefaults: true });
  ajv.addFormat('date-time', { type: 'string', validate: isRealInstant });
  return ajv;
}

/** Compiles a route's query or path schema into the layer's validator (Fastify's validatorCompiler shape). */
export function compileParameters(ajv: Ajv, schema: unknown, part: Part, route: string): ParameterValidator {
  const properties = objectProperties(schema, part, route);
  const coercers = new Map(Object.entries(properties).map(([name, property]) => [name, coercerFor(ajv, property, `${route} ${part}.${name}`)]));
  const validate: ValidateFunction = ajv.compile(schema as object);
  const known = [...coercers.keys()];
  return (data) => {
    const input = (data ?? {}) as Record<string, unknown>;
    const unknown = Object.keys(input).filter((name) => !coercers.has(name));
    if (unknown.length > 0) return { error: unknownParameters(part, unknown, known) };
    const value: Record<string, unknown> = {};
    for (const [name, raw] of Object.entries(input)) {
      const coerced = coercers.get(name)!(raw);
      if (coerced instanceof VettedError) return { error: coerced };
      value[name] = coerced;
    }
    if (validate(value)) return { value };
    return { error: Object.assign(new Error(`${part} is not valid`), { validation: validate.errors as ErrorObject[] }) };
  };
}

/** Refuses any query parameter on a route that declares none (health, metrics, one run by id). */
export function refuseUndeclaredQuery(query: unknown): VettedError | undefined {
  const names = Object.keys((query ?? {}) as object);
  return names.length > 0 ? unknownParameters('querystring', names, []) : undefined;
}

function unknownParameters(part: Part, names: string[], known: string[]): VettedError {
  const takes = known.length > 0 ? `it takes ${known.join(', ')}` : 'it takes none';
  const what = names.length === 1 ? 'is not a parameter' : 'are not parameters';
  return new VettedError('INVALID_REQUEST', `${part}: ${names.join(', ')} ${what} of this route (${takes})`, {
    field: `${part}.${names[0]}`,
    details: { unknown: names },
  });
}

function objectProperties(schema: unknown, part: Part, route: string): Record<string, Schema> {
  const properties = (schema as Schema | undefined)?.properties;
  if (typeof properties !== 'object' || properties === null) {
    throw new VettedError('INTERNAL', `${route}: the ${part} schema must be an object schema with properties (see api/params.ts)`);
  }
  return properties as Record<string, Schema>;
}

/** How one parameter's text becomes its value, from its (resolved) schema. */
function coercerFor(ajv: Ajv, property: Schema, where: string): (raw: unknown) => unknown {
  const resolved = resolve(ajv, property);
  if (resolved.type === 'array') {
    const item = scalarCoercer(resolve(ajv, (resolved.items ?? {}) as Schema), where);
    return (raw) => (Array.isArray(raw) ? raw : [raw]).map((text) => item(String(text)));
  }
  const scalar = scalarCoercer(resolved, where);
  const name = where.split(' ').pop()!;
  return (raw) => {
    if (!Array.isArray(raw)) return scalar(String(raw));
    return new VettedError('INVALID_REQUEST', `${name} is given ${raw.length} times; give it once`, { field: name });
  };
}

const INTEGER = /^-?(0|[1-9][0-9]*)$/;
const DECIMAL = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;

function scalarCoercer(schema: Schema, where: string): Coerce {
  switch (schema.type) {
    case 'integer':
    case 'number': {
      assertBounded(schema, where);
      const syntax = schema.type === 'integer' ? INTEGER : DECIMAL;
      // Text that is not plain digits stays text, so AJV names the parameter and the type it must be.
      return (raw) => (syntax.test(raw) && Number.isFinite(Number(raw)) ? Number(raw) : raw);
    }
    case 'boolean':
      return (raw) => (raw === 'true' ? true : raw === 'false' ? false : raw);
    default:
      return (raw) => raw;
  }
}

function assertBounded(schema: Schema, where: string): void {
  if (typeof schema.minimum !== 'number' || typeof schema.maximum !== 'number') {
    throw new VettedError('INTERNAL', `${where}: a numeric parameter needs a minimum and a maximum (api/params.ts param.integer)`);
  }
}

/** A `$ref` parameter's own schema (one level: the contracts' definitions are not chains). */
function resolve(ajv: Ajv, schema: Schema): Schema {
  if (typeof schema.$ref !== 'string') return schema;
  const target = ajv.getSchema(schema.$ref)?.schema;
  if (typeof target !== 'object' || target === null) throw new VettedError('INTERNAL', `parameter schema ${schema.$ref} is not registered`);
  return target as Schema;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/;

/**
 * An RFC 3339 date-time that names a real instant both PostgreSQL and JavaScript take: the day exists
 * (no 30 February), no leap second (`new Date` cannot hold :60), offsets within ±23:59, and the instant in
 * UTC within years 1 to 9999 (PostgreSQL refuses year 0).
 */
export function isRealInstant(text: string): boolean {
  const match = RFC3339.exec(text);
  if (!match) return false;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const daysInMonth = new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !isLeap(year) ? 1 : 0);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth || hour > 23 || minute > 59 || second > 59) return false;
  if (match[9] !== undefined && (Number(match[9]) > 23 || Number(match[10]) > 59)) return false;
  const utcYear = new Date(text).getUTCFullYear();
  return Number.isFinite(utcYear) && utcYear >= 1 && utcYear <= 9999;
}

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}
