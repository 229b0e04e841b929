/**
 * Query and path parameters, declared once: each building block is plain JSON Schema (what the OpenAPI
 * document shows) that the parameter layer (plugins/parameters.ts) parses strictly: numbers in digits,
 * finite and within their bounds, dates that exist, enums, and no parameter the route does not name.
 *
 * A route adopts it in one line:
 * ```ts
 * schema: { querystring: query({ model: param.model, since: param.instant, limit: param.limit }) }
 * ```
 */
import { contractId } from '../src/schema/contracts.ts';

type Schema = Record<string, unknown>;

// AJV's `uuid` format also accepts a `urn:uuid:` prefix, which PostgreSQL's uuid type does not (a 500 at the
// query); the pattern keeps ids to the canonical form every id in Vetted has.
const uuid = { type: 'string', format: 'uuid', pattern: '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$' } as const;

/**
 * An instant PostgreSQL and JavaScript both accept. RFC 3339 allows year 0000 and a leap second (23:59:60);
 * PostgreSQL refuses year 0 and `new Date()` cannot represent :60 (both were 500s). The layer also checks
 * the day exists (no 31 April).
 */
const instant = {
  type: 'string',
  format: 'date-time',
  pattern: '^[1-9][0-9]{3}-(?!.*:60)',
  description: 'An RFC 3339 date-time (2026-01-31T12:00:00Z), year 1000 to 9999, no leap second',
} as const;

/** A whole number between `minimum` and `maximum`; the layer refuses a parameter of this kind without both. */
function integer(minimum: number, maximum: number, extra: Schema = {}): Schema {
  return { type: 'integer', minimum, maximum, ...extra };
}

/** The building blocks. Each is a schema object; spread one to add a description. */
export const param = {
  uuid,
  instant,
  integer,
  /** A caller-chosen id (user, session, team): the common Identifier contract. */
  identifier: { $ref: contractId('common', '#/definitions/Identifier') },
  /** owner/name or owner/name:version, as runs store it (common ModelReference). */
  model: { $ref: contractId('common', '#/definitions/ModelReference') },
  /** Page size. */
  limit: integer(1, 200, { default: 50, description: 'Items per page (1 to 200, default 50)' }),
  /** The opaque `nextCursor` of the previous page. */
  cursor: { type: 'string', maxLength: 500, pattern: '^[A-Za-z0-9_-]+$', description: 'The nextCursor of the previous page' },
  boolean: { type: 'boolean' },
  /** One of a fixed list of words. */
  oneOf: (values: readonly string[], extra: Schema = {}): Schema => ({ type: 'string', enum: [...values], ...extra }),
  /** A parameter that may repeat (`?status=queued&status=failed`), at most `maxItems` times. */
  list: (items: Schema, maxItems: number, extra: Schema = {}): Schema => ({ type: 'array', items, maxItems, ...extra }),
} as const;

/** A query string: the named parameters, none other. */
export function query(properties: Record<string, Schema>, options: { required?: string[]; anyOf?: Schema[] } = {}): Schema {
  return {
    type: 'object',
    additionalProperties: false,
    properties,
    ...(options.required ? { required: options.required } : {}),
    // Which combinations are required (say so in a parameter's description too: the document lists parameters one by one).
    ...(options.anyOf ? { anyOf: options.anyOf } : {}),
  };
}

/** Path parameters: every one required. */
export function pathParams(properties: Record<string, Schema>): Schema {
  return { type: 'object', additionalProperties: false, required: Object.keys(properties), properties };
}
