/**
 * Request validation with the contracts in schemas/. Bodies are checked strictly: no type coercion and no
 * silent removal of unknown fields (Fastify's defaults do both), so `{"width": "768"}` or a misspelt field
 * is a 400 naming the field. Query strings and path parameters are text: the parameter layer
 * (parameters.ts) reads them, strictly, from the route's schema. The OpenAPI document shows these very
 * schemas, so a body or parameter it allows is never refused for a rule it does not state.
 *
 * Before the contracts, bodies and query strings are checked for what no contract can express but
 * PostgreSQL refuses: see {@link assertStorable}.
 */
import type { FastifyInstance, FastifySchema } from 'fastify';
import type { ValidateFunction } from 'ajv';
import { VettedError } from '../../src/errors.ts';
import { createAjv } from '../../src/schema/ajv.ts';
import { loadContractSchemas } from '../../src/schema/contracts.ts';
import { compileParameters, createParameterAjv, refuseUndeclaredQuery } from './parameters.ts';

/**
 * How deep a body or query may nest. A Replicate model object (the deepest thing a request carries) nests
 * 11 levels, and the extractor gives up after 32 property levels (about 70 JSON levels). Thousands of levels
 * overflow the stack when the row is serialised for PostgreSQL, which was a 500.
 */
export const MAX_REQUEST_DEPTH = 128;

export function registerContractValidation(app: FastifyInstance): void {
  const strict = createAjv({ coerceTypes: false, removeAdditional: false, useDefaults: false });
  const headers = createAjv({ coerceTypes: true, removeAdditional: false, useDefaults: true });
  const parameters = createParameterAjv();
  for (const { schema } of loadContractSchemas()) {
    for (const ajv of [strict, headers, parameters]) ajv.addSchema(schema);
  }
  app.addHook('preValidation', async (request) => {
    assertStorable(request.body, '', 0);
    assertStorable(request.query, 'querystring', 0);
    // A documented route with no query schema takes no parameters; one it would ignore is refused, named.
    const schema = request.routeOptions.schema as { querystring?: unknown; hide?: boolean } | undefined;
    if (schema && !schema.hide && !schema.querystring) {
      const refused = refuseUndeclaredQuery(request.query);
      if (refused) throw refused;
    }
  });
  app.setValidatorCompiler(({ schema, httpPart, method, url }) => {
    if (httpPart === 'querystring' || httpPart === 'params') return compileParameters(parameters, schema, httpPart, `${method} ${url}`);
    return (httpPart === 'body' ? strict : headers).compile(schema as object) as ValidateFunction;
  });
  // Responses are plain JSON; their schemas document the API (and tests check them against the contracts).
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
}

export type RouteSchema = FastifySchema & { tags?: string[]; summary?: string; description?: string; security?: unknown[] };

/**
 * Refuses text PostgreSQL cannot store and nesting that would overflow the stack, naming the field. jsonb
 * and text columns reject U+0000, and jsonb rejects an unpaired UTF-16 surrogate (`"\ud800"` is valid JSON
 * but not Unicode); either in a prompt, a reason or a key used to pass the contract and then fail the INSERT
 * with a 500. Keys are checked as well as values, because a jsonb key is text too.
 * @param path the field so far, as describeAjvErrors writes it (`attachments[0].url`); '' is the body itself.
 */
function assertStorable(value: unknown, path: string, depth: number): void {
  if (typeof value === 'string') {
    const problem = unstorable(value);
    if (problem) throw invalid(path || 'body', `contains ${problem}`);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  if (depth >= MAX_REQUEST_DEPTH) throw invalid(path || 'body', `nests deeper than ${MAX_REQUEST_DEPTH} levels`);
  if (Array.isArray(value)) {
    value.forEach((item, index) => assertStorable(item, `${path}[${index}]`, depth + 1));
    return;
  }
  for (const [key, inner] of Object.entries(value)) {
    const field = path ? `${path}.${printable(key)}` : printable(key);
    const problem = unstorable(key);
    if (problem) throw invalid(field, `has a name that contains ${problem}`);
    assertStorable(inner, field, depth + 1);
  }
}

/** In Unicode mode a surrogate pair is one code point, so `\p{Cs}` only matches an unpaired half. */
const LONE_SURROGATE = /\p{Cs}/u;

function unstorable(text: string): string | undefined {
  if (text.includes('\u0000')) return 'a NUL character (\\u0000), which cannot be stored';
  if (LONE_SURROGATE.test(text)) return 'an unpaired UTF-16 surrogate, which is not valid Unicode';
  return undefined;
}

/** A key as it can be shown in a problem body: the characters it is refused for, escaped or replaced. */
function printable(key: string): string {
  return key.replaceAll('\u0000', '\\u0000').replace(/\p{Cs}/gu, '\uFFFD');
}

function invalid(field: string, problem: string): VettedError {
  return new VettedError('INVALID_REQUEST', `${field} ${problem}`, { field });
}
