/**
 * A run's move (compare-and-set on its status, plus its audit event) as ONE hand-written statement:
 *
 *   WITH moved AS (UPDATE runs SET … WHERE id = $ AND status = ANY($) [AND stage/attempt/review guard] RETURNING *),
 *        ev    AS (INSERT INTO run_events (…) SELECT … FROM moved RETURNING id)
 *   SELECT moved.*, ev.id AS event_id FROM moved LEFT JOIN ev ON true
 *
 * Why not drizzle's builder here: every stage of every run goes through this, and building the CTE with
 * drizzle cost more CPU than the rest of the stage (measured with `npm run bench -- --cpu-prof-dir`). The
 * text depends only on which columns change, so it is built once per shape and sent as a named prepared
 * statement; the values travel as parameters. Column names come from the drizzle table, so the schema
 * stays the single definition.
 */
import { createHash } from 'node:crypto';
import { getTableColumns } from 'drizzle-orm';
import { toSnakeCase } from 'drizzle-orm/casing';
import type pg from 'pg';
import type { RunEventType, RunStatus, StageName } from '../generated/contracts.ts';
import { runs, type NewRunRow, type RunRow } from './schema/index.ts';

/** Values a move may set: plain data only (counters and clocks have their own switches). */
export type RunPatch = Partial<Omit<RunRow, 'id' | 'status' | 'tenantId' | 'traceId' | 'threadId' | 'createdAt' | 'updatedAt'>>;

export interface MoveGuard {
  stage?: StageName;
  attempt?: number;
  pendingReviewId?: string;
}

export interface MoveSpec {
  runId: string;
  /** The statuses the run may be in for the move to apply; anything else makes it a no-op. */
  from: readonly RunStatus[];
  to: RunStatus;
  /** Extra compare-and-set conditions: the stage visit (`stage`, `attempt`) or the pending review id. */
  guard?: MoveGuard;
  set?: RunPatch;
  /** Start a new stage visit: attempt + 1 (the job ids of the new visit use it). */
  bumpAttempt?: boolean;
  /** A new ledger step for the next execution (a response review's retry). */
  bumpExecutionSeq?: boolean;
  event?: { type: RunEventType; actor: string; data: Record<string, unknown> };
}

export interface MoveResult {
  run: RunRow;
  eventId: bigint | null;
}

const COLUMNS = getTableColumns(runs);
// Columns declared without a name take their key, turned snake_case by the drizzle instance's casing.
const SQL_NAME = new Map<string, string>(Object.entries(COLUMNS).map(([key, column]) => [key, column.keyAsName ? toSnakeCase(column.name) : column.name]));
const FROM_SQL_NAME = new Map<string, string>([...SQL_NAME].map(([key, name]) => [name, key]));
const JSON_KEYS = new Set(Object.entries(COLUMNS).filter(([, column]) => column.columnType === 'PgJsonb').map(([key]) => key));
const GUARD_COLUMNS: Record<keyof MoveGuard, string> = { stage: 'stage', attempt: 'attempt', pendingReviewId: 'pending_review_id' };

interface Shape {
  name: string;
  text: string;
  setKeys: string[];
  guardKeys: (keyof MoveGuard)[];
}

const shapes = new Map<string, Shape>();

function shapeOf(spec: MoveSpec): Shape {
  const setKeys = Object.keys(spec.set ?? {}).filter((key) => (spec.set as Record<string, unknown>)[key] !== undefined).sort();
  const guardKeys = (Object.keys(spec.guard ?? {}) as (keyof MoveGuard)[]).filter((key) => spec.guard?.[key] !== undefined).sort();
  const signature = [setKeys.join(','), guardKeys.join(','), spec.bumpAttempt, spec.bumpExecutionSeq, Boolean(spec.event)].join('|');
  let shape = shapes.get(signature);
  if (!shape) {
    shape = { name: `vetted_move_${createHash('sha1').update(signature).digest('hex').slice(0, 16)}`, text: buildText(setKeys, guardKeys, spec), setKeys, guardKeys };
    shapes.set(signature, shape);
  }
  return shape;
}

function buildText(setKeys: string[], guardKeys: (keyof MoveGuard)[], spec: MoveSpec): string {
  // $1 status, $2 run id, $3 allowed statuses, then the set values, then the guards, then the event.
  let n = 3;
  const assignments = ['status = $1', 'updated_at = now()'];
  for (const key of setKeys) {
    const column = SQL_NAME.get(key);
    if (!column) throw new Error(`runs has no column for ${key}`);
    assignments.push(`"${column}" = $${++n}${JSON_KEYS.has(key) ? '::jsonb' : ''}`);
  }
  if (spec.bumpAttempt) assignments.push('attempt = attempt + 1');
  if (spec.bumpExecutionSeq) assignments.push('execution_seq = execution_seq + 1');
  const conditions = ['id = $2', 'status = any($3::text[])', ...guardKeys.map((key) => `"${GUARD_COLUMNS[key]}" = $${++n}`)];
  const update = `update runs set ${assignments.join(', ')} where ${conditions.join(' and ')} returning *`;
  if (!spec.event) return `with moved as (${update}) select moved.*, null::bigint as event_id from moved`;
  const event = `insert into run_events (run_id, tenant_id, type, actor, data, trace_id, thread_id)
    select id, tenant_id, $${n + 1}, $${n + 2}, $${n + 3}::jsonb, trace_id, thread_id from moved returning id`;
  return `with moved as (${update}), ev as (${event}) select moved.*, ev.id as event_id from moved left join ev on true`;
}

function valuesOf(spec: MoveSpec, shape: Shape): unknown[] {
  const set = (spec.set ?? {}) as Record<string, unknown>;
  const values: unknown[] = [spec.to, spec.runId, [...spec.from]];
  for (const key of shape.setKeys) values.push(JSON_KEYS.has(key) && set[key] !== null ? JSON.stringify(set[key]) : set[key]);
  for (const key of shape.guardKeys) values.push(spec.guard?.[key]);
  if (spec.event) values.push(spec.event.type, spec.event.actor, JSON.stringify(spec.event.data));
  return values;
}

/** A `runs` row as pg returns it (snake_case) as the RunRow drizzle would have made. */
export function runRowFromSql(raw: Record<string, unknown>): RunRow {
  const row: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(raw)) {
    const key = FROM_SQL_NAME.get(name);
    if (key) row[key] = value;
  }
  return row as unknown as RunRow;
}

const insertShapes = new Map<string, { name: string; text: string; keys: string[] }>();

function insertShapeOf(values: Record<string, unknown>) {
  const keys = Object.keys(values).filter((key) => values[key] !== undefined).sort();
  const signature = keys.join(',');
  let shape = insertShapes.get(signature);
  if (!shape) {
    const columns = keys.map((key) => `"${SQL_NAME.get(key) ?? key}"`);
    const params = keys.map((key, i) => `$${i + 1}${JSON_KEYS.has(key) ? '::jsonb' : ''}`);
    const n = keys.length;
    const text = `with inserted as (
        insert into runs (${columns.join(', ')}) values (${params.join(', ')})
        on conflict (tenant_id, request_key) where request_key is not null do nothing returning *),
      ev as (insert into run_events (run_id, tenant_id, type, actor, data, trace_id, thread_id)
        select id, tenant_id, $${n + 1}, $${n + 2}, $${n + 3}::jsonb, trace_id, thread_id from inserted returning id)
      select inserted.* from inserted left join ev on true`;
    shape = { name: `vetted_insert_${createHash('sha1').update(signature).digest('hex').slice(0, 16)}`, text, keys };
    insertShapes.set(signature, shape);
  }
  return shape;
}

/**
 * Inserts a run and its run.created event as one statement. Undefined when a run with the same tenant and
 * requestKey exists (the caller returns that one).
 */
export async function insertRun(pool: pg.Pool, values: NewRunRow, event: { type: RunEventType; actor: string; data: Record<string, unknown> }): Promise<RunRow | undefined> {
  const record = values as Record<string, unknown>;
  const shape = insertShapeOf(record);
  const params = shape.keys.map((key) => (JSON_KEYS.has(key) && record[key] !== null ? JSON.stringify(record[key]) : record[key]));
  params.push(event.type, event.actor, JSON.stringify(event.data));
  const result = await pool.query<Record<string, unknown>>({ name: shape.name, text: shape.text, values: params });
  const raw = result.rows[0];
  return raw ? runRowFromSql(raw) : undefined;
}

/** Runs one move on a pool or on the client of an open transaction. Undefined when the guard failed. */
export async function moveRun(executor: pg.Pool | pg.PoolClient, spec: MoveSpec): Promise<MoveResult | undefined> {
  const shape = shapeOf(spec);
  const result = await executor.query<Record<string, unknown>>({ name: shape.name, text: shape.text, values: valuesOf(spec, shape) });
  const raw = result.rows[0];
  if (!raw) return undefined;
  const { event_id: eventId, ...columns } = raw;
  return { run: runRowFromSql(columns), eventId: eventId === null || eventId === undefined ? null : BigInt(eventId as string) };
}

const INSERT_EVENT = {
  name: 'vetted_insert_event',
  text: `insert into run_events (run_id, tenant_id, type, actor, data, trace_id, thread_id)
    values ($1, $2, $3, $4, $5::jsonb, $6, $7) returning id`,
};

/** Appends one audit event (a named prepared statement, on a pool or inside an open transaction). */
export async function insertEvent(
  executor: pg.Pool | pg.PoolClient,
  run: Pick<RunRow, 'id' | 'tenantId' | 'traceId' | 'threadId'>,
  event: { type: RunEventType; actor: string; data: Record<string, unknown> },
): Promise<bigint> {
  const values = [run.id, run.tenantId, event.type, event.actor, JSON.stringify(event.data), run.traceId, run.threadId];
  const result = await executor.query<{ id: string }>({ ...INSERT_EVENT, values });
  return BigInt(result.rows[0]?.id as string);
}
