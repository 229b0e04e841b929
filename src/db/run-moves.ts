/**
 * A run's move (compare-and-set on its status, plus its audit event) as ONE hand-written statement:
 *
 *   WITH moved AS (UPDATE runs SET … WHERE id = $ AND status = ANY($) [AND stage/attempt/review guard] RETURNING *),
 *        ev    AS (INSERT INTO run_events (…) SELECT … FROM moved RETURNING id)
 *   SELECT moved.*, ev.id AS event_id FROM moved LEFT JOIN ev ON true
 *
 * A reviewer's decision rides on the move it causes (MoveSpec.decision): the decision row and its
 * review.decided event are two more CTEs of the same statement, so the compare-and-set, the audit row and the
 * events commit together or not at all, without a transaction's BEGIN and COMMIT round trips. A side-effect-free
 * execution's ledger row rides the same way on the move that ends the execute visit (MoveSpec.ledger).
 *
 * On the stage hot path the statement also returns only what PostgreSQL computes (MoveSpec.base), and the
 * runs table is laid out so that these updates are HOT and log only the columns they change
 * (src/db/schema/runs.ts). A document the move sets (a bundle, a candidate, issues, a result) is not a column of
 * runs: it is written into run_documents by two more CTEs of the same statement, only when the move happened
 * (run-documents.ts has the rules: an empty value deletes the kind's row, any other replaces it).
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
import type { AssigneePick, Committed, EventInput, StoreWrite, WriteGuard } from '../engine/store.ts';
import { clearsDocument, documentsFrom, documentsText, emptyDocument, isDocumentKey } from './run-documents.ts';
import { runs, type NewRunRow, type RunRow } from './schema/index.ts';

/**
 * A write as this module runs it: the store's write, plus the row it may start from (`base`). When given,
 * the statement returns only the columns PostgreSQL computes, and the moved row is this one with the write
 * applied: the database does not print, and pg does not parse, the wide jsonb columns the caller already
 * holds. Sound only when the guard pins the stage visit the row was read at (pg-run-store.ts checks), because
 * a stage visit's row changes only through the write that ends the visit (visit-handoff.ts).
 */
export interface MoveSpec extends StoreWrite {
  base?: RunRow;
}

const COLUMNS = getTableColumns(runs);
// Columns declared without a name take their key, turned snake_case by the drizzle instance's casing.
const SQL_NAME = new Map<string, string>(Object.entries(COLUMNS).map(([key, column]) => [key, column.keyAsName ? toSnakeCase(column.name) : column.name]));
const FROM_SQL_NAME = new Map<string, string>([...SQL_NAME].map(([key, name]) => [name, key]));
const JSON_KEYS = new Set([...Object.entries(COLUMNS).filter(([, column]) => column.columnType === 'PgJsonb').map(([key]) => key), 'request', 'bundle', 'candidate', 'issues', 'result']);
/** Each guard's condition, given a function that numbers its next parameter, and the values it sends. */
const GUARDS: { [K in keyof WriteGuard]-?: { sql: (next: () => number) => string; values: (value: NonNullable<WriteGuard[K]>) => unknown[] } } = {
  stage: { sql: (next) => `"stage" = $${next()}`, values: (stage) => [stage] },
  attempt: { sql: (next) => `"attempt" = $${next()}`, values: (attempt) => [attempt] },
  pendingReviewId: { sql: (next) => `"pending_review_id" = $${next()}`, values: (id) => [id] },
  claimableBy: {
    sql: (next) => `("claimed_by" is null or "claimed_by" = $${next()} or "claim_expires_at" < $${next()})`,
    values: ({ actor, now }) => [actor, now],
  },
  // jsonb equality is by value (key order aside): the review as the writer read it, sealed values included.
  pendingReviewIs: { sql: (next) => `"pending_review" = $${next()}::jsonb`, values: (review) => [JSON.stringify(review)] },
  assignedTo: { sql: (next) => `"assigned_to" is not distinct from $${next()}::text`, values: ({ is }) => [is] },
  snoozes: { sql: (next) => `"snoozes" = $${next()}::jsonb`, values: (snoozes) => [JSON.stringify(snoozes)] },
};

interface Shape {
  name: string;
  text: string;
  setKeys: string[];
  guardKeys: (keyof WriteGuard)[];
}

/** What a move computes in the database; the rest of a moved row is known to the caller (MoveSpec.base). */
const COMPUTED = 'moved.updated_at, moved.attempt, moved.execution_seq';
// The event insert reads these from `moved` too.
const SLIM_RETURNING = 'returning id, tenant_id, trace_id, thread_id, updated_at, attempt, execution_seq';

const shapes = new Map<string, Shape>();

/** The keys whose value is not undefined, in the order given (a call site always gives the same order). */
function presentKeys<T extends object>(record: T | undefined): (keyof T & string)[] {
  const keys: (keyof T & string)[] = [];
  for (const key in record) if (record[key] !== undefined) keys.push(key);
  return keys;
}

function shapeOf(spec: MoveSpec): Shape {
  if (spec.ledger && spec.decision) throw new Error('a move records either a decision or an execution, not both');
  const setKeys = presentKeys(spec.set);
  const guardKeys = presentKeys(spec.guard);
  const flags = [spec.bumpAttempt, spec.bumpExecutionSeq, spec.event, spec.decision, spec.ledger, spec.base, spec.countPrior].map((flag) => (flag ? 1 : 0)).join('');
  const signature = `${setKeys.join(',')}|${guardKeys.join(',')}|${flags}|${spec.pickAssignee?.order ?? ''}`;
  let shape = shapes.get(signature);
  if (!shape) {
    shape = { name: `vetted_move_${createHash('sha1').update(signature).digest('hex').slice(0, 16)}`, text: buildText(setKeys, guardKeys, spec), setKeys, guardKeys };
    shapes.set(signature, shape);
  }
  return shape;
}

/**
 * $1 status, $2 run id, $3 allowed statuses, then the set values, the guards, the ledger record, the
 * decision or the event, and the events to count (valuesOf pushes them in this order).
 */
const SET_VALUES_FROM = 3;

function buildText(setKeys: string[], guardKeys: (keyof WriteGuard)[], spec: MoveSpec): string {
  let n = SET_VALUES_FROM;
  const assignments = ['status = $1', 'updated_at = now()'];
  const documents: string[] = [];
  for (const key of setKeys) {
    if (isDocumentKey(key)) {
      documents.push(`('${key}', $${++n}::jsonb)`);
      continue;
    }
    const column = SQL_NAME.get(key);
    if (!column) throw new Error(`runs has no column for ${key}`);
    assignments.push(`"${column}" = $${++n}${JSON_KEYS.has(key) ? '::jsonb' : ''}`);
  }
  if (spec.bumpAttempt) assignments.push('attempt = attempt + 1');
  if (spec.bumpExecutionSeq) assignments.push('execution_seq = execution_seq + 1');
  const next = () => ++n;
  const atVisit = ['id = $2', 'status = any($3::text[])', ...guardKeys.map((key) => GUARDS[key].sql(next))].join(' and ');
  if (spec.pickAssignee) return withPickText(assignments, atVisit, spec.pickAssignee.order, n);
  let ledger = '';
  if (spec.ledger) {
    ledger = `led as (insert into executions (run_id, step, status, provider, payload_hash, result, finished_at)
      select $2::uuid, $${n + 1}, $${n + 2}, $${n + 3}, $${n + 4}, $${n + 5}::jsonb, now() where exists (select 1 from runs where ${atVisit})
      on conflict do nothing returning run_id), `;
    n += 5;
  }
  const where = spec.ledger ? `${atVisit} and exists (select 1 from led)` : atVisit;
  const update = `update runs set ${assignments.join(', ')} where ${where} ${spec.base ? SLIM_RETURNING : 'returning *'}`;
  // The documents subquery reads the statement's snapshot, not this statement's own writes: moveRun overlays
  // the documents this move sets with the values sent. The others are current: only a move writes a document,
  // and one that committed after this statement's snapshot changed the status, visit or review this move's
  // guard names (PostgreSQL re-checks the guard on the newest version of the row, which then fails).
  const counted = spec.countPrior ? priorEventsText(n + (spec.decision ? DECISION_VALUES : spec.event ? EVENT_VALUES : 0)) : '';
  const columns = `${spec.base ? COMPUTED : `moved.*, ${documentsText('moved.id')} as documents`}${counted}`;
  const moved = `moved as (${update})${documentsCtes(documents, spec.bumpAttempt ? 'moved.attempt - 1' : 'moved.attempt')}`;
  if (spec.decision) return withDecisionText(moved, columns, n);
  if (!spec.event) return `with ${ledger}${moved} select ${columns}, null::bigint as event_id from moved`;
  const event = `insert into run_events (run_id, tenant_id, type, actor, data, trace_id, thread_id)
    select id, tenant_id, $${n + 1}, $${n + 2}, $${n + 3}::jsonb, trace_id, thread_id from moved returning id`;
  return `with ${ledger}${moved}, ev as (${event}) select ${columns}, ev.id as event_id from moved left join ev on true`;
}

/** The values a decision, or an event, takes (valuesOf). */
const DECISION_VALUES = 9;
const EVENT_VALUES = 3;

/**
 * The run's events of the counted types about one review, from before this statement: every part of a
 * statement reads the snapshot it started with, so the events this statement inserts are not among them.
 * An index range scan of run_events by run (run_events_run_id_idx), in the move's round trip.
 */
function priorEventsText(n: number): string {
  return `, (select count(*)::int from run_events e where e.run_id = moved.id and e.type = any($${n + 1}::text[]) and e.data->>'reviewId' = $${n + 2}::text) as prior_events`;
}

/**
 * The CTEs that write a move's documents (rows `(kind, $n::jsonb)`, SQL null for a cleared one) after
 * `moved`: each written kind replaces its row, each cleared kind's row is deleted; neither happens when the
 * move did not (moved is empty). `attempt` is the visit that produced them.
 */
function documentsCtes(rows: string[], attempt: string): string {
  if (rows.length === 0) return '';
  return `, docs (kind, body) as (values ${rows.join(', ')}),
    docs_written as (insert into run_documents (run_id, kind, attempt, body)
      select moved.id, docs.kind, ${attempt}, docs.body from moved cross join docs where docs.body is not null
      on conflict (run_id, kind) do update set attempt = excluded.attempt, body = excluded.body, written_at = excluded.written_at returning 1),
    docs_cleared as (delete from run_documents where run_id = (select id from moved) and kind in (select kind from docs where body is null) returning 1)`;
}

/**
 * The move, the decision row, and the events (the decision's, then the move's) as one statement. The events
 * travel as one JSON array and are inserted in array order (ORDER BY ord: PostgreSQL draws the ids from the
 * sequence as the sorted rows reach the insert), so the trail's order does not depend on how the CTEs run.
 * The move's event, the last one, is the id returned (what a webhook sends).
 */
function withDecisionText(moved: string, columns: string, n: number): string {
  const decision = `insert into decisions (run_id, tenant_id, review_id, actor, action, raw, parsed, edits, override, review)
    select id, tenant_id, $${n + 1}::uuid, $${n + 2}, $${n + 3}, $${n + 4}::jsonb, $${n + 5}::jsonb, $${n + 6}::jsonb, $${n + 7}::boolean, $${n + 9}::jsonb from moved`;
  const events = `insert into run_events (run_id, tenant_id, type, actor, data, trace_id, thread_id)
    select moved.id, moved.tenant_id, e.value->>'type', e.value->>'actor', e.value->'data', moved.trace_id, moved.thread_id
    from moved cross join jsonb_array_elements($${n + 8}::jsonb) with ordinality as e(value, ord) order by e.ord returning id`;
  return `with ${moved}, dec as (${decision}), ev as (${events})
    select ${columns}, (select max(id) from ev) as event_id from moved`;
}

/**
 * Auto-assignment as one statement: pick the team's next available person (round robin: whoever was given a
 * review longest ago; fewest pending: whoever holds the fewest pending reviews, then the same), assign the
 * review to them only while it is still pending and unassigned, record their turn, and write the event naming
 * them. The caller holds the team's lock for the statement's transaction (pg-run-store.ts), so the next pick
 * sees this one.
 */
function withPickText(assignments: string[], atVisit: string, order: AssigneePick['order'], n: number): string {
  const pending = `(select count(*) from runs held where held.tenant_id = r.tenant_id and held.assigned_to = r.id and held.pending_review_id is not null and held.status = 'awaiting_human')`;
  const orderBy = [...(order === 'fewest_pending' ? [pending] : []), 'r.last_assigned_at asc nulls first', 'r.id'].join(', ');
  const pick = `pick as (select r.id from reviewers r where r.tenant_id = $${n + 1} and r.team = $${n + 2} and r.available and r.role <> 'submitter'
    order by ${orderBy} limit 1)`;
  const update = `update runs set ${[...assignments, 'assigned_to = (select id from pick)'].join(', ')} where ${atVisit} and exists (select 1 from pick) returning *`;
  const turn = `turn as (update reviewers set last_assigned_at = clock_timestamp() where id = (select assigned_to from moved) returning id)`;
  const event = `insert into run_events (run_id, tenant_id, type, actor, data, trace_id, thread_id)
    select id, tenant_id, $${n + 3}, $${n + 4}, $${n + 5}::jsonb || jsonb_build_object('assignee', assigned_to), trace_id, thread_id from moved returning id`;
  return `with ${pick}, moved as (${update}), ${turn}, ev as (${event})
    select moved.*, ${documentsText('moved.id')} as documents, ev.id as event_id from moved left join ev on true`;
}

/** A set value as sent: jsonb columns as JSON text, anything else as is; a cleared document as null. */
function sqlValue(key: string, value: unknown): unknown {
  if (isDocumentKey(key) && clearsDocument(key, value)) return null;
  return JSON_KEYS.has(key) && value !== null ? JSON.stringify(value) : value;
}

function valuesOf(spec: MoveSpec, shape: Shape): unknown[] {
  const set = (spec.set ?? {}) as Record<string, unknown>;
  const values: unknown[] = [spec.to, spec.runId, [...spec.from]];
  for (const key of shape.setKeys) values.push(sqlValue(key, set[key]));
  for (const key of shape.guardKeys) values.push(...guardValues(key, spec.guard));
  if (spec.pickAssignee) values.push(spec.pickAssignee.tenantId, spec.pickAssignee.team);
  if (spec.ledger) {
    const { step, provider, payloadHash, result } = spec.ledger;
    values.push(step, result.status === 'succeeded' ? 'succeeded' : 'failed', provider, payloadHash, JSON.stringify(result));
  }
  if (spec.decision) {
    const { decision } = spec;
    const events = [decision.event, spec.event].filter((event) => event !== undefined);
    values.push(decision.reviewId, decision.actor, decision.action, JSON.stringify(decision.raw), JSON.stringify(decision.parsed));
    values.push(decision.edits === null ? null : JSON.stringify(decision.edits), decision.override, JSON.stringify(events));
    values.push(decision.review === null ? null : JSON.stringify(decision.review));
  } else if (spec.event) {
    values.push(spec.event.type, spec.event.actor, JSON.stringify(spec.event.data));
  }
  if (spec.countPrior) values.push([...spec.countPrior.types], spec.countPrior.reviewId);
  return values;
}

function guardValues(key: keyof WriteGuard, guard: WriteGuard | undefined): unknown[] {
  const value = guard?.[key];
  if (value === undefined) return [];
  // Each entry of GUARDS takes its own key's value; the map's type says so, one key at a time.
  return (GUARDS[key].values as (value: unknown) => unknown[])(value);
}

/** A `runs` row as pg returns it (snake_case, with `documents`) as the RunRow drizzle would have made. */
export function runRowFromSql(raw: Record<string, unknown>): RunRow {
  const row: Record<string, unknown> = { ...documentsFrom(raw.documents as Record<string, unknown> | null | undefined) };
  for (const [name, value] of Object.entries(raw)) {
    const key = FROM_SQL_NAME.get(name);
    if (key) row[key] = value;
  }
  return row as unknown as RunRow;
}

interface InsertShape {
  name: string;
  text: string;
  keys: string[];
}

const insertShapes = new Map<string, InsertShape>();

function insertShapeOf(values: Record<string, unknown>): InsertShape {
  const keys = Object.keys(values).filter((key) => values[key] !== undefined).sort();
  const signature = keys.join(',');
  let shape = insertShapes.get(signature);
  if (!shape) {
    const columns: string[] = [];
    const params: string[] = [];
    const documents: string[] = [];
    keys.forEach((key, i) => {
      if (isDocumentKey(key)) documents.push(`('${key}', $${i + 1}::jsonb)`);
      else {
        columns.push(`"${SQL_NAME.get(key) ?? key}"`);
        params.push(`$${i + 1}${JSON_KEYS.has(key) ? '::jsonb' : ''}`);
      }
    });
    // Only what the insert did not send comes back: the defaults (clocks, counters, nulls).
    const defaulted = [...SQL_NAME].filter(([key]) => !keys.includes(key)).map(([, name]) => `inserted."${name}"`);
    const n = keys.length;
    const written = documents.length === 0 ? '' : `docs (kind, body) as (values ${documents.join(', ')}),
      docs_written as (insert into run_documents (run_id, kind, attempt, body)
        select inserted.id, docs.kind, inserted.attempt, docs.body from inserted cross join docs where docs.body is not null returning 1),`;
    const text = `with inserted as (
        insert into runs (${columns.join(', ')}) values (${params.join(', ')})
        on conflict (tenant_id, request_key) where request_key is not null do nothing returning *),
      ${written}
      ev as (insert into run_events (run_id, tenant_id, type, actor, data, trace_id, thread_id)
        select id, tenant_id, $${n + 1}, $${n + 2}, $${n + 3}::jsonb, trace_id, thread_id from inserted returning id)
      select ${['inserted.id', ...defaulted].join(', ')} from inserted left join ev on true`;
    shape = { name: `vetted_insert_${createHash('sha1').update(signature).digest('hex').slice(0, 16)}`, text, keys };
    insertShapes.set(signature, shape);
  }
  return shape;
}

/**
 * Inserts a run and its run.created event as one statement. Undefined when a run with the same tenant and
 * requestKey exists (the caller returns that one).
 */
export async function insertRun(pool: pg.Pool, values: NewRunRow, event: EventInput): Promise<RunRow | undefined> {
  const record = values as Record<string, unknown>;
  const shape = insertShapeOf(record);
  const params = shape.keys.map((key) => sqlValue(key, record[key]));
  params.push(event.type, event.actor, JSON.stringify(event.data));
  const result = await pool.query<Record<string, unknown>>({ name: shape.name, text: shape.text, values: params });
  const raw = result.rows[0];
  if (!raw) return undefined;
  const row = runRowFromSql(raw) as unknown as Record<string, unknown>;
  assignSent(row, shape.keys, params, 0);
  return row as unknown as RunRow;
}

/**
 * Puts values as sent into a row, as a read would return them: jsonb values parsed back from the JSON text
 * (what pg's parser would make of PostgreSQL's output), so no caller's object is shared with the row and no
 * value JSON cannot hold (a Date, undefined) survives in a jsonb column.
 */
function assignSent(row: Record<string, unknown>, keys: readonly string[], params: readonly unknown[], firstParam: number): void {
  keys.forEach((key, index) => {
    const sent = params[firstParam + index];
    if (isDocumentKey(key) && sent === null) row[key] = emptyDocument(key);
    else row[key] = JSON_KEYS.has(key) && sent !== null ? JSON.parse(sent as string) : sent;
  });
}

/** Runs one move. Undefined when the guard failed. */
export async function moveRun(pool: Pick<pg.Pool, 'query'> | pg.PoolClient, spec: MoveSpec): Promise<Committed | undefined> {
  const shape = shapeOf(spec);
  const values = valuesOf(spec, shape);
  const result = await pool.query<Record<string, unknown>>({ name: shape.name, text: shape.text, values });
  const raw = result.rows[0];
  if (!raw) return undefined;
  const { event_id: eventId, prior_events: priorEvents, ...columns } = raw;
  const hasEvent = spec.event !== undefined && eventId !== null && eventId !== undefined;
  const run = spec.base ? movedBase(spec.base, spec, shape, values, columns) : withSentDocuments(runRowFromSql(columns), shape, values);
  return { run, eventId: hasEvent ? BigInt(eventId as string) : null, ...(spec.countPrior ? { priorEvents: Number(priorEvents) } : {}) };
}

/** The row the move returned, with the documents it wrote as sent (the statement reads the ones before). */
function withSentDocuments(run: RunRow, shape: Shape, values: unknown[]): RunRow {
  const row = run as unknown as Record<string, unknown>;
  const documents = shape.setKeys.map((key, index) => [key, index] as const).filter(([key]) => isDocumentKey(key));
  for (const [key, index] of documents) assignSent(row, [key], values, SET_VALUES_FROM + index);
  return run;
}

/** The base row with the move applied: what the database computed, and the values as sent (assignSent). */
function movedBase(base: RunRow, spec: MoveSpec, shape: Shape, values: unknown[], computed: Record<string, unknown>): RunRow {
  const row: Record<string, unknown> = { ...base, status: spec.to, updatedAt: computed.updated_at, attempt: computed.attempt, executionSeq: computed.execution_seq };
  assignSent(row, shape.setKeys, values, SET_VALUES_FROM);
  return row as unknown as RunRow;
}
