/**
 * The idempotency ledger over PostgreSQL (the RunStore's `ledger`). `begin` is the gate: exactly one caller creates the row for a (run, step);
 * everyone else gets the existing row and must not start the step again. The writes every execution makes
 * are named prepared statements (one round trip each, no query building per run).
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { ExecutionResult } from '../generated/contracts.ts';
import type { LedgerStore } from '../engine/store.ts';
import type { Database } from './client.ts';
import { executions, type ExecutionRow } from './schema/index.ts';

/** pg returns snake_case; the executor only reads these three. */
function entryFromSql(raw: Record<string, unknown>): ExecutionRow {
  return {
    runId: raw.run_id as string,
    step: raw.step as string,
    status: raw.status as ExecutionRow['status'],
    provider: raw.provider as string,
    payloadHash: raw.payload_hash as string,
    predictionId: (raw.prediction_id as string | null) ?? null,
    result: (raw.result as ExecutionResult | null) ?? null,
    startedAt: raw.started_at as Date,
    finishedAt: (raw.finished_at as Date | null) ?? null,
  };
}

const BEGIN = `insert into executions (run_id, step, status, provider, payload_hash) values ($1, $2, 'started', $3, $4)
  on conflict do nothing returning *`;
// The same write, made only while the run is still at its execute visit (LedgerVisit in executor.ts).
const atVisit = (attemptParam: string) =>
  `exists (select 1 from runs where runs.id = $1::uuid and runs.status = 'executing' and runs.attempt = ${attemptParam}::int)`;
const BEGIN_AT_VISIT = `insert into executions (run_id, step, status, provider, payload_hash)
  select $1::uuid, $2::text, 'started', $3::text, $4::text where ${atVisit('$5')}
  on conflict do nothing returning *`;
const FINISH = `update executions set status = $3, result = $4::jsonb, finished_at = now() where run_id = $1 and step = $2`;
const GET = `select * from executions where run_id = $1 and step = $2`;

/** Undefined only when a visit was given and the run is no longer at it (nothing was written). */
type BeginResult = { fresh: boolean; row: ExecutionRow } | undefined;

export function createPgLedger({ db, pool }: Database): LedgerStore {
  const byKey = (runId: string, step: string) => and(eq(executions.runId, runId), eq(executions.step, step));
  const existing = async (runId: string, step: string): Promise<ExecutionRow | undefined> => {
    const { rows } = await pool.query<Record<string, unknown>>({ name: 'vetted_ledger_get', text: GET, values: [runId, step] });
    return rows[0] ? entryFromSql(rows[0]) : undefined;
  };
  /** No row written: the step exists already (the first writer's row wins), or the run left the visit. */
  const notWritten = async (input: { runId: string; step: string; runAttempt?: number }): Promise<BeginResult> => {
    const row = await existing(input.runId, input.step);
    if (row) return { fresh: false, row };
    if (input.runAttempt !== undefined) return undefined;
    throw new Error(`ledger row for ${input.runId}/${input.step} vanished`);
  };

  return {
    async begin(input: { runId: string; step: string; provider: string; payloadHash: string; runAttempt?: number }): Promise<BeginResult> {
      const values: unknown[] = [input.runId, input.step, input.provider, input.payloadHash];
      const query = input.runAttempt === undefined
        ? { name: 'vetted_ledger_begin', text: BEGIN, values }
        : { name: 'vetted_ledger_begin_at_visit', text: BEGIN_AT_VISIT, values: [...values, input.runAttempt] };
      const { rows } = await pool.query<Record<string, unknown>>(query);
      return rows[0] ? { fresh: true, row: entryFromSql(rows[0]) } : notWritten(input);
    },

    /** Records the provider's handle before waiting, so a retry after a crash resumes instead of starting again. */
    async recordHandle(runId: string, step: string, predictionId: string): Promise<void> {
      await db.update(executions).set({ predictionId }).where(byKey(runId, step));
    },

    async finish(runId: string, step: string, result: ExecutionResult): Promise<void> {
      const status = result.status === 'succeeded' ? 'succeeded' : 'failed';
      await pool.query({ name: 'vetted_ledger_finish', text: FINISH, values: [runId, step, status, JSON.stringify(result)] });
    },

    /**
     * Frees a step the provider proved it never started (see ProviderNotStartedError): only a `started` row
     * without a handle goes, so a row whose prediction was recorded can never be released by mistake.
     */
    async release(runId: string, step: string): Promise<void> {
      await db.delete(executions).where(and(byKey(runId, step), eq(executions.status, 'started'), isNull(executions.predictionId)));
    },

    async get(runId: string, step: string): Promise<ExecutionRow | undefined> {
      const [row] = await db.select().from(executions).where(byKey(runId, step));
      return row;
    },

    async listForRun(runId: string): Promise<ExecutionRow[]> {
      return db.select().from(executions).where(eq(executions.runId, runId)).orderBy(executions.startedAt);
    },
  };
}
