/**
 * Fills PostgreSQL with parked runs for the review phase, fast: one INSERT … SELECT over generate_series,
 * copying real parked runs (the templates: runs this phase parked through the API, one per bench model), so
 * every seeded row has the shape the pipeline gives a parked run: status awaiting_human, a real request,
 * bundle, candidate and issues, a pendingReview whose reviewId is also pending_review_id, parked_at spread
 * over the last 20 hours (oldest first is a real ordering), and review_expires_at parked_at + the review TTL,
 * so every review is still pending.
 *
 * What changes per row: ids (run, review, trace, thread), tenant (half the bench tenant, half another, so
 * the listing's tenant scoping has rows to skip), timestamps, and the checkpoint: 80% payload_review, 15%
 * information_review, 5% error_recovery, so a checkpoint filter has both a common and a rare value to find.
 * Not seeded: the run_events trail (nothing measured reads another run's events) and the review-expiry
 * bucket jobs in Redis (the expiry worker is not running).
 *
 * The column list comes from the table itself, so a column added to `runs` later is copied from the
 * templates instead of breaking the seed; each seeded run gets a copy of its template's documents
 * (run_documents).
 */
import type pg from 'pg';

/** The checkpoint mix, by generate_series index modulo 20. */
export const SEED_CHECKPOINTS = [
  { checkpoint: 'payload_review', share: 0.8 },
  { checkpoint: 'information_review', share: 0.15 },
  { checkpoint: 'error_recovery', share: 0.05 },
] as const;

export interface SeedInput {
  /** Parked runs to copy (their ids); rows cycle through them. */
  templateRunIds: readonly string[];
  /** Rows to insert. */
  count: number;
  /** Even quarters of the rows go to the first tenant, odd ones to the second. */
  tenants: readonly [string, string];
  reviewTtlSeconds: number;
}

export interface SeedResult {
  inserted: number;
  insertSeconds: number;
  /** VACUUM (ANALYZE) of runs afterwards, as autovacuum would do after this many inserts. */
  vacuumSeconds: number;
  /** Size of the runs table with its TOAST and indexes, after seeding. */
  tableBytes: number;
}

/** Per column: the SQL that sets it (s = the generated series row, t = the template run). */
const OVERRIDES: Readonly<Record<string, string>> = {
  id: 's.run_id',
  tenant_id: 's.tenant_id',
  request_key: 'null',
  status: "'awaiting_human'",
  trace_id: 's.trace_id',
  thread_id: 's.run_id::text',
  pending_review_id: 's.review_id',
  parked_at: 's.parked_at',
  review_expires_at: 's.expires_at',
  stage_started_at: "s.parked_at - interval '15 milliseconds'",
  created_at: "s.parked_at - interval '2 seconds'",
  updated_at: 's.parked_at',
  pending_review: `t.pending_review || jsonb_build_object(
    'reviewId', s.review_id::text,
    'checkpoint', s.checkpoint,
    'kind', case s.checkpoint when 'payload_review' then 'approval' when 'information_review' then 'clarification' else 'error_recovery' end,
    'reason', case s.checkpoint when 'payload_review' then 'policy_requires_human' when 'information_review' then 'nothing_to_build_from' else 'builder_failed' end,
    'createdAt', to_char(s.parked_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'expiresAt', to_char(s.expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`,
};

/** Without these the rows would not be parked runs; the seed refuses to guess. */
const REQUIRED = ['id', 'tenant_id', 'status', 'pending_review', 'pending_review_id', 'parked_at'];

export async function seedParkedRuns(pool: pg.Pool, input: SeedInput): Promise<SeedResult> {
  if (input.templateRunIds.length === 0) throw new Error('seeding needs at least one parked run to copy');
  const { rows: columns } = await pool.query<{ name: string }>(
    "select column_name as name from information_schema.columns where table_schema = current_schema() and table_name = 'runs' and is_generated = 'NEVER' order by ordinal_position",
  );
  const names = columns.map((column) => column.name);
  const missing = REQUIRED.filter((name) => !names.includes(name));
  if (missing.length > 0) throw new Error(`runs has no column ${missing.join(', ')}: bench/review-seed.ts needs updating`);

  const started = performance.now();
  const result = await pool.query(
    `with template as (
       select row_number() over (order by id) - 1 as slot, * from runs where id = any($1::uuid[])
     ), series as (
       select g,
              gen_random_uuid() as run_id,
              gen_random_uuid() as review_id,
              gen_random_uuid()::text as trace_id,
              case when g % 4 < 2 then $2 else $3 end as tenant_id,
              now() - (g::double precision / $4::int) * interval '20 hours' as parked_at,
              case when g % 20 = 0 then 'error_recovery' when g % 20 < 4 then 'information_review' else 'payload_review' end as checkpoint
       from generate_series(1, $4::int) as g
     ), pairs as (
       select s.*, t.id as template_id
       from (select *, parked_at + make_interval(secs => $6::double precision) as expires_at from series) as s
       join template as t on t.slot = s.g % $5::int
     ), documents as (
       insert into run_documents (run_id, kind, attempt, body, written_at)
       select p.run_id, d.kind, d.attempt, d.body, p.parked_at from pairs as p join run_documents as d on d.run_id = p.template_id
     )
     insert into runs (${names.map((name) => `"${name}"`).join(', ')})
     select ${names.map((name) => OVERRIDES[name] ?? `t."${name}"`).join(', ')}
     from pairs as s join template as t on t.id = s.template_id`,
    [[...input.templateRunIds], input.tenants[0], input.tenants[1], input.count, input.templateRunIds.length, input.reviewTtlSeconds],
  );
  const insertSeconds = (performance.now() - started) / 1000;
  const vacuumStarted = performance.now();
  await pool.query('vacuum (analyze) runs, run_documents');
  const vacuumSeconds = (performance.now() - vacuumStarted) / 1000;
  const { rows } = await pool.query<{ bytes: string }>("select pg_total_relation_size('runs') as bytes");
  return { inserted: result.rowCount ?? 0, insertSeconds, vacuumSeconds, tableBytes: Number(rows[0]?.bytes ?? 0) };
}

/**
 * The oldest seeded payload reviews of a tenant, as a reviewer's client would decide them (approve with the
 * payload hash shown); the templates are left alone.
 */
export async function oldestPayloadReviews(pool: pg.Pool, tenantId: string, count: number, exclude: readonly string[]): Promise<{ id: string; reviewId: string; payloadHash: string }[]> {
  const { rows } = await pool.query<{ id: string; reviewId: string; payloadHash: string }>(
    `select id, pending_review_id as "reviewId", pending_review ->> 'payloadHash' as "payloadHash"
     from runs
     where tenant_id = $1 and status = 'awaiting_human' and pending_review ->> 'checkpoint' = 'payload_review' and id <> all($3::uuid[])
     order by parked_at, id
     limit $2`,
    [tenantId, count, [...exclude]],
  );
  if (rows.length < count) throw new Error(`only ${rows.length} seeded payload reviews for ${tenantId}, ${count} wanted`);
  return rows;
}
