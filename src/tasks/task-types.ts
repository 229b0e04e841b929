/**
 * Task types: the kinds of task a tenant accepts for review, each a name and the JSON Schema its payloads must
 * meet (`vetted task-types add --file`, POST /api/task-types). A schema is compiled when it is registered, so a
 * broken one is refused naming the problem rather than failing every task later. Payload validators are
 * compiled once per schema hash, each in its own AJV instance, so one tenant's `$id` cannot collide with
 * another's; patterns run in RE2 (linear time), as model payloads' do.
 */
import type { ValidateFunction } from 'ajv';
import { LRUCache } from 'lru-cache';
import { VettedError } from '../errors.ts';
import type { TaskType } from '../generated/contracts.ts';
import { createPayloadAjv } from '../schema/ajv.ts';
import { assertContract, describeAjvErrors } from '../schema/contracts.ts';
import { assertTenantId } from '../tenants.ts';
import { canonicalHash } from '../util/canonical-hash.ts';
import { findUnstorableText } from '../util/storable-text.ts';
import { DEFAULT_AUTO_APPROVE } from './routing.ts';
import type { TasksRepository, TaskTypeRow } from './task-rows.ts';

/** A task type's schema is configuration, not data: a quarter of a megabyte is far more than any needs. */
export const MAX_SCHEMA_BYTES = 256 * 1024;

const validators = new LRUCache<string, ValidateFunction>({ max: 1000 });

/** Checks and stores a task type (a second registration of a name replaces its schema and routing). */
export async function registerTaskType(repository: TasksRepository, tenantId: string, definition: unknown): Promise<TaskTypeRow> {
  assertTenantId(tenantId);
  const type = assertContract<TaskType>('task-type', definition, 'task type');
  const unstorable = findUnstorableText(type);
  if (unstorable) throw new VettedError('INVALID_REQUEST', `task type: ${unstorable.path} ${unstorable.reason}`, { field: unstorable.path });
  if (JSON.stringify(type.schema).length > MAX_SCHEMA_BYTES) throw new VettedError('INVALID_REQUEST', `task type: schema is larger than ${MAX_SCHEMA_BYTES} bytes`, { field: 'schema' });
  if (type.schema.type !== 'object') throw new VettedError('INVALID_REQUEST', 'task type: schema must describe an object ("type": "object"): a payload is a JSON object', { field: 'schema.type' });
  const schemaHash = canonicalHash(type.schema);
  compilePayloadSchema(schemaHash, type.schema);
  return repository.upsertType({
    tenantId,
    name: type.name,
    description: type.description ?? null,
    schema: type.schema,
    schemaHash,
    autoApprove: type.autoApprove ?? [...DEFAULT_AUTO_APPROVE],
  });
}

/** The type a submission names. @throws VettedError TASK_TYPE_NOT_FOUND naming what to do. */
export async function taskTypeNamed(repository: TasksRepository, tenantId: string, name: string): Promise<TaskTypeRow> {
  const type = await repository.getType(tenantId, name);
  if (!type) throw new VettedError('TASK_TYPE_NOT_FOUND', `No task type "${name}" for this tenant; register it first (\`vetted task-types add --file\`)`, { field: 'taskType' });
  return type;
}

/**
 * Checks a payload against its type's schema.
 * @throws VettedError INVALID_REQUEST naming the first failing field, with every failure as `issues`.
 */
export function assertPayloadFits(type: TaskTypeRow, payload: unknown): void {
  const validate = compilePayloadSchema(type.schemaHash, type.schema);
  if (validate(payload)) return;
  const errors = describeAjvErrors(validate.errors ?? []);
  const issues = errors.map((error) => ({ path: `/${error.field.replace(/\[(\d+)\]/g, '.$1').split('.').filter(Boolean).join('/')}`, message: `${error.field ? `payload.${error.field}` : 'payload'} ${error.message}` }));
  const first = errors[0];
  const field = first?.field ? `payload.${first.field}` : 'payload';
  throw new VettedError('INVALID_REQUEST', `payload does not fit task type "${type.name}": ${field} ${first?.message ?? 'is not valid'}`, { field, details: { issues } });
}

function compilePayloadSchema(schemaHash: string, schema: Record<string, unknown>): ValidateFunction {
  const cached = validators.get(schemaHash);
  if (cached) return cached;
  let validate: ValidateFunction;
  try {
    validate = createPayloadAjv().compile(schema);
  } catch (error) {
    throw new VettedError('INVALID_REQUEST', `task type: schema is not a usable JSON Schema: ${(error as Error).message}`, { field: 'schema' });
  }
  validators.set(schemaHash, validate);
  return validate;
}
