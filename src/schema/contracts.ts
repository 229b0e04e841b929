/**
 * The contracts in schemas/ as runtime validators. The same files generate the TypeScript types
 * (src/generated/contracts.ts) and the Fastify route schemas, so an edge check and a type never disagree.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { VettedError } from '../errors.ts';
import { createAjv } from './ajv.ts';
import { fromPackageRoot } from '../util/package-root.ts';

export const SCHEMAS_DIR = fromPackageRoot('schemas');
export const SCHEMA_ID_BASE = 'https://vetted.dev/schemas/';

export type ContractName =
  | 'common'
  | 'run-policy'
  | 'generation-request'
  | 'model-schema'
  | 'request-bundle'
  | 'candidate-payload'
  | 'validation-issue'
  | 'pending-review'
  | 'run'
  | 'run-event'
  | 'decision'
  | 'reply'
  | 'problem'
  | 'review-queue-stats'
  | 'review-task'
  | 'task-type'
  | 'mcp-tools'
  | 'notification-settings'
  | 'corrections-report';

export interface LoadedSchema {
  name: string;
  id: string;
  schema: Record<string, unknown>;
}

let registry: { ajv: Ajv; validators: Map<string, ValidateFunction> } | undefined;
let loadedSchemas: LoadedSchema[] | undefined;

/** Every schema file, parsed once. Fastify registers these with addSchema. */
export function loadContractSchemas(): LoadedSchema[] {
  loadedSchemas ??= readdirSync(SCHEMAS_DIR)
    .filter((file) => file.endsWith('.schema.json'))
    .sort()
    .map((file) => {
      const schema = JSON.parse(readFileSync(path.join(SCHEMAS_DIR, file), 'utf8')) as Record<string, unknown>;
      return { name: file.replace('.schema.json', ''), id: String(schema.$id), schema };
    });
  return loadedSchemas;
}

function contractRegistry() {
  if (!registry) {
    const ajv = createAjv();
    for (const { schema } of loadContractSchemas()) ajv.addSchema(schema);
    registry = { ajv, validators: new Map() };
  }
  return registry;
}

/** The id of a contract (or of a definition inside it, with `#/definitions/X`). */
export function contractId(name: ContractName, fragment = ''): string {
  return `${SCHEMA_ID_BASE}${name}.schema.json${fragment}`;
}

function validatorFor(name: ContractName, fragment: string): ValidateFunction {
  const { ajv, validators } = contractRegistry();
  const id = contractId(name, fragment);
  let validate = validators.get(id);
  if (!validate) {
    validate = ajv.getSchema(id);
    if (!validate) throw new VettedError('INTERNAL', `No contract schema ${id}`);
    validators.set(id, validate);
  }
  return validate;
}

/**
 * Checks data against a contract and returns it typed; throws INVALID_REQUEST naming the first offending
 * field (all of them are in `details.errors`).
 * @param label what the data is, for the message ("request file", "body").
 */
/** `owner/name` or `owner/name:version`, as requests, the catalog and the CLI name models (common ModelReference). */
export function isModelReference(text: string): boolean {
  try {
    assertContract<string>('common', text, 'model', '#/definitions/ModelReference');
    return true;
  } catch {
    return false;
  }
}

export function assertContract<T>(name: ContractName, data: unknown, label: string, fragment = ''): T {
  const validate = validatorFor(name, fragment);
  if (validate(data)) return data as T;
  const errors = describeAjvErrors(validate.errors ?? []);
  const first = errors[0];
  throw new VettedError(
    'INVALID_REQUEST',
    `${label}: ${first ? `${first.field || '(root)'} ${first.message}` : 'is not valid'}`,
    { field: first?.field, details: { errors } },
  );
}

export interface FieldError {
  /** Dotted path of the offending field, e.g. `attachments[0].url`; empty for the root. */
  field: string;
  message: string;
  keyword: string;
}

/** Turns AJV errors into field-named messages; the most specific error for each field comes first. */
export function describeAjvErrors(errors: ErrorObject[]): FieldError[] {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const error of mostSpecificFirst(errors)) {
    const described = describeAjvError(error);
    const key = `${described.field}|${described.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(described);
  }
  return out;
}

const UNION_SUMMARIES: ReadonlySet<string> = new Set(['oneOf', 'anyOf']);

/**
 * The error that says the most first. A union (`policy` is a mode name or a policy object) fails every
 * branch, and AJV lists the branches in order: `policy must be string` before the real problem,
 * `policy.reviewTtlSeconds must be >= 10`. The deepest path is the branch the value was meant for, and a
 * union's own summary ("must match a schema in oneOf") says least of all. Stable, so ties keep AJV's order.
 */
function mostSpecificFirst(errors: readonly ErrorObject[]): ErrorObject[] {
  const depth = (error: ErrorObject) => (error.instancePath.match(/\//g)?.length ?? 0) + (error.keyword === 'required' || error.keyword === 'additionalProperties' ? 1 : 0);
  const rank = (error: ErrorObject) => (UNION_SUMMARIES.has(error.keyword) ? -1 : depth(error));
  return [...errors].sort((a, b) => rank(b) - rank(a));
}

function describeAjvError(error: ErrorObject): FieldError {
  const params = error.params as Record<string, unknown>;
  let field = pointerToDotted(error.instancePath);
  let message = error.message ?? 'is not valid';
  switch (error.keyword) {
    case 'required':
      field = joinField(field, String(params.missingProperty));
      message = 'is required';
      break;
    case 'additionalProperties':
      field = joinField(field, String(params.additionalProperty));
      message = 'is not an allowed field';
      break;
    case 'enum':
      message = `must be one of ${JSON.stringify(params.allowedValues)}`;
      break;
    case 'pattern':
      message = describePattern(field, String(params.pattern));
      break;
    case 'false schema':
      // A field a rule forbids given the others (edits with an action other than "edit").
      message = 'is not allowed with the other values given';
      break;
    default:
      break;
  }
  return { field, message, keyword: error.keyword };
}

/** The contracts' URL pattern (http or https, any letter case; JSON Schema patterns take no flags). */
const HTTP_URL_PATTERN = '^[Hh][Tt][Tt][Pp][Ss]?://';

function describePattern(field: string, pattern: string): string {
  if (pattern.startsWith(HTTP_URL_PATTERN)) return 'must be an http(s) URL with a host';
  if (field.endsWith('model')) return 'must look like owner/name or owner/name:version';
  return `must match ${pattern}`;
}

/** `/attachments/0/url` → `attachments[0].url` */
export function pointerToDotted(pointer: string): string {
  if (!pointer) return '';
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : joinField(acc, part)), '');
}

function joinField(base: string, name: string): string {
  return base ? `${base}.${name}` : name;
}
