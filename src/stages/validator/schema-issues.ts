/**
 * AJV errors → ValidationIssues. Every schema issue is blocking: the provider would refuse the payload.
 *
 * required → missing_required (at the missing field's path), type → type, minimum/maximum/exclusive* → range,
 * enum → enum, format → format, additionalProperties → unknown_field, anything else (pattern, lengths, items,
 * const, multipleOf…) → constraint. An anyOf/oneOf failure becomes one issue instead of one per branch.
 */
import type { ErrorObject } from 'ajv';
import type { FieldSpec, IssueCode, ValidationIssue } from '../../generated/contracts.ts';
import { escapePointer } from '../example-quarantine.ts';
import type { CompiledSchema } from './compiled-schema.ts';
import {
  acceptedValue,
  attachmentKind,
  boundsPhrase,
  closestName,
  defaultHint,
  fieldLabel,
  listValues,
  setValueHint,
  showValue,
  typeNames,
  typeOfValue,
  useDefaultHint,
} from './describe.ts';

const BRANCHING_KEYWORDS = new Set(['anyOf', 'oneOf']);
const COMPARISON_SYMBOLS: Record<string, string> = { '<=': '≤', '>=': '≥', '<': '<', '>': '>' };
const FORMAT_NAMES: Record<string, string> = {
  uri: 'an http(s) URL',
  'uri-reference': 'a URI reference',
  url: 'a URL',
  email: 'an email address',
  date: 'a date (YYYY-MM-DD)',
  'date-time': 'a date and time (2024-01-31T12:00:00Z)',
  time: 'a time (12:00:00Z)',
  uuid: 'a UUID',
};

/** Validates the payload against the compiled schema and describes every failure. */
export function schemaIssues(compiled: CompiledSchema, payload: unknown): ValidationIssue[] {
  if (compiled.validate(payload)) return [];
  const errors = collapseBranches(compiled.validate.errors ?? []);
  return errors.map((error) => ({ ...describe(error, compiled, payload), severity: 'blocking' }));
}

interface Described {
  path: string;
  code: IssueCode;
  message: string;
  suggestion: string;
}

/** One failing value, with what the describers need to talk about it. */
interface Failure {
  path: string;
  label: string;
  spec: FieldSpec | undefined;
  value: unknown;
  shown: string;
  params: Record<string, unknown>;
  message: string | undefined;
}

type Describer = (failure: Failure) => Described;

function describe(error: ErrorObject, compiled: CompiledSchema, payload: unknown): Described {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') {
    const path = `${error.instancePath}/${escapePointer(String(params.missingProperty))}`;
    return missingRequired(path, specAt(compiled, path));
  }
  if (error.keyword === 'additionalProperties') {
    const path = `${error.instancePath}/${escapePointer(String(params.additionalProperty))}`;
    return unknownField(path, error.instancePath === '' ? [...compiled.fields.keys()] : []);
  }
  const path = error.instancePath;
  const spec = specAt(compiled, path);
  const value = valueAt(payload, path);
  const failure = { path, label: fieldLabel(path), spec, value, shown: showValue(value, spec), params, message: error.message };
  return (DESCRIBERS[error.keyword] ?? otherConstraint)(failure);
}

const DESCRIBERS: Record<string, Describer> = {
  type: wrongType,
  minimum: outOfRange,
  maximum: outOfRange,
  exclusiveMinimum: outOfRange,
  exclusiveMaximum: outOfRange,
  enum: notInEnum,
  format: badFormat,
  anyOf: noBranchMatches,
  oneOf: noBranchMatches,
};

function wrongType({ path, label, spec, value, shown, params }: Failure): Described {
  const expected = typeNames(params.type as string | string[]);
  return {
    path,
    code: 'type',
    message: `${label} must be ${expected}, got ${shown}${value === null ? '' : ` (${typeOfValue(value)})`}`,
    suggestion: `give ${label} as ${spec ? acceptedValue(spec) : expected}${defaultHint(spec)}`,
  };
}

function outOfRange({ path, label, spec, shown, params }: Failure): Described {
  const symbol = COMPARISON_SYMBOLS[String(params.comparison)] ?? String(params.comparison);
  const limit = `${symbol} ${String(params.limit)}`;
  const bounds = spec ? boundsPhrase(spec.minimum, spec.maximum) : '';
  return {
    path,
    code: 'range',
    message: `${label} must be ${limit}, got ${shown}`,
    suggestion: `use a value${bounds || ` ${limit}`} for ${label}${defaultHint(spec)}`,
  };
}

function notInEnum({ path, label, spec, shown, params }: Failure): Described {
  const allowed = (params.allowedValues as unknown[] | undefined) ?? spec?.enum ?? [];
  return {
    path,
    code: 'enum',
    message: `${label} must be one of the model's allowed values, got ${shown}`,
    suggestion: `choose one of ${listValues(allowed)} for ${label}${defaultHint(spec)}`,
  };
}

function badFormat({ path, label, spec, shown, params }: Failure): Described {
  const format = String(params.format);
  const expected = FORMAT_NAMES[format] ?? `a valid ${format}`;
  const kind = attachmentKind(spec);
  return {
    path,
    code: 'format',
    message: `${label} must be ${expected}, got ${shown}`,
    suggestion: kind ? `attach ${kind} to the request and use its URL for ${label}` : `give ${label} as ${expected}`,
  };
}

function noBranchMatches({ path, label, spec, shown }: Failure): Described {
  return {
    path,
    code: 'constraint',
    message: `${label} matches none of the forms the schema allows, got ${shown}`,
    suggestion: `give ${label} as ${spec ? acceptedValue(spec) : 'a value the schema allows'}${defaultHint(spec)}`,
  };
}

/** pattern, lengths, items, const, multipleOf…: AJV's own words are precise enough. */
function otherConstraint({ path, label, spec, shown, message }: Failure): Described {
  const reason = (message ?? 'is not valid').replace('must NOT', 'must not');
  return {
    path,
    code: 'constraint',
    message: `${label} ${reason}, got ${shown}`,
    suggestion: `change ${label}: it ${reason}${defaultHint(spec)}`,
  };
}

function missingRequired(path: string, spec: FieldSpec | undefined): Described {
  const label = fieldLabel(path);
  const kind = attachmentKind(spec);
  return {
    path,
    code: 'missing_required',
    message: `${label} is required by the model but the payload has no value for it`,
    suggestion: kind ? `attach ${kind} to the request; ${label} takes its URL` : `${setValueHint(label, spec)}${useDefaultHint(spec)}`,
  };
}

function unknownField(path: string, known: string[]): Described {
  const label = fieldLabel(path);
  const near = closestName(label, known);
  const listed = known.length > 0 ? `; this model's inputs are ${known.slice(0, 12).join(', ')}` : '';
  return {
    path,
    code: 'unknown_field',
    message: `${label} is not an input of this model`,
    suggestion: `remove ${label}${near ? `; did you mean ${near}?` : listed}`,
  };
}

/** Branch errors under an anyOf/oneOf say the same thing several times; keep only the branching error. */
function collapseBranches(errors: readonly ErrorObject[]): ErrorObject[] {
  const branchPaths = errors.filter((e) => BRANCHING_KEYWORDS.has(e.keyword)).map((e) => `${e.schemaPath}/`);
  if (branchPaths.length === 0) return [...errors];
  return errors.filter((e) => !branchPaths.some((prefix) => e.schemaPath.startsWith(prefix)));
}

/** The top-level FieldSpec a pointer falls under (`/images/0` → images), when it is the field itself. */
function specAt(compiled: CompiledSchema, path: string): FieldSpec | undefined {
  const parts = path.split('/');
  if (parts.length !== 2) return undefined;
  return compiled.fields.get(unescape(parts[1] ?? ''));
}

function valueAt(root: unknown, path: string): unknown {
  let current = root;
  for (const part of path.split('/').slice(1)) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[unescape(part)];
  }
  return current;
}

function unescape(part: string): string {
  return part.replace(/~1/g, '/').replace(/~0/g, '~');
}
