/**
 * The corpus-line checker: a line is only worth scoring when it could be right. Every problem names the line
 * (file:line and id) and the reason, so a mistyped enum value or a file matcher pointing at no attachment is
 * fixed at once instead of showing up as a builder miss.
 */
import type { FieldSpec, ModelSchema } from '../../src/generated/contracts.ts';
import { KINDS, LANGS, type CorpusLine, type Matcher } from './corpus.ts';

/** Problems with one line, given its model's extracted schema (undefined: the model is not in the catalog). */
export function checkLine(line: CorpusLine, schema: ModelSchema | undefined): string[] {
  const problems: string[] = [];
  if (typeof line.id !== 'string' || line.id === '') problems.push('id is missing');
  if (!(KINDS as readonly string[]).includes(line.kind)) problems.push(`kind must be one of ${KINDS.join(', ')}, got ${JSON.stringify(line.kind)}`);
  if (!(LANGS as readonly string[]).includes(line.lang)) problems.push(`lang must be one of ${LANGS.join(', ')}, got ${JSON.stringify(line.lang)}`);
  if (typeof line.request !== 'object' || line.request === null) problems.push('request must be an object');
  if (typeof line.expect !== 'object' || line.expect === null || Object.keys(line.expect).length === 0) problems.push('expect must name at least one field');
  if (schema === undefined) return [...problems, `model ${line.model} is not in the public catalog`];
  const urls = new Set(((line.request?.attachments ?? []) as { url?: string }[]).map((attachment) => attachment.url));
  for (const [name, matcher] of Object.entries(line.expect ?? {})) {
    const field = schema.fields.find((candidate) => candidate.name === name);
    if (field === undefined) {
      problems.push(`expect.${name}: ${line.model} has no such field`);
      continue;
    }
    problems.push(...checkMatcher(matcher, field, urls).map((problem) => `expect.${name}: ${problem}`));
  }
  return problems;
}

function checkMatcher(matcher: Matcher, field: FieldSpec, urls: ReadonlySet<string | undefined>): string[] {
  if (typeof matcher !== 'object' || matcher === null) return checkValue(matcher, field);
  const keys = Object.keys(matcher).sort().join(',');
  if ('absent' in matcher) return matcher.absent === true && keys === 'absent' ? [] : ['an absent matcher is exactly {"absent":true}'];
  if ('file' in matcher) return urls.has(matcher.file) ? [] : [`file ${matcher.file} is not among the request's attachments`];
  if ('oneOf' in matcher) {
    if (!Array.isArray(matcher.oneOf) || matcher.oneOf.length === 0) return ['oneOf needs at least one value'];
    return matcher.oneOf.flatMap((value) => checkValue(value, field));
  }
  if ('contains' in matcher) {
    const parts = [...matcher.contains, ...(matcher.excludes ?? [])];
    if (!Array.isArray(matcher.contains) || parts.some((part) => typeof part !== 'string' || part === '')) return ['contains and excludes are lists of non-empty strings'];
    return field.type === 'string' ? [] : [`contains is for text fields; this one is ${field.type}`];
  }
  return [`unknown matcher ${JSON.stringify(matcher)}; use a value, oneOf, contains/excludes, absent or file`];
}

/** A value the field could hold: its type, one of its enum values, within its range. */
function checkValue(value: unknown, field: FieldSpec): string[] {
  if (field.enum !== undefined && !field.enum.some((allowed) => allowed === value)) return [`${JSON.stringify(value)} is not one of the field's values`];
  const type = field.type === 'array' ? field.itemType : field.type;
  const typeOk =
    type === undefined || type === 'any' || (type === 'integer' ? Number.isInteger(value) : type === 'number' ? typeof value === 'number' : typeof value === type);
  if (!typeOk) return [`${JSON.stringify(value)} is not of type ${type}`];
  if (typeof value === 'number' && ((field.minimum !== undefined && value < field.minimum) || (field.maximum !== undefined && value > field.maximum))) {
    return [`${value} is outside ${field.minimum ?? '…'}..${field.maximum ?? '…'}`];
  }
  return [];
}
