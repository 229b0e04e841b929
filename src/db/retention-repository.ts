/**
 * Retention: per-tenant settings (tenant_retention) and the purge of run documents. A purge keeps the audit
 * skeleton of a terminal run forever (its id, status, stage, timings, events, decisions' actors, actions and
 * routes, schema and payload hashes, the executions ledger's steps and hashes) and removes what people and
 * models wrote: the request (prompt, conversation, attachments), the bundle, the candidate, the issues, the
 * review edits, the output (on the run and in the ledger), the decisions' raw bodies, edits and reviews as
 * shown, a chat reply's reading, and the shadow reports' payloads. Each purged run gets a `run.purged` event
 * carrying the SHA-256 of the request it had, so the trail still proves what was asked.
 */
import { eq, sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import type { RetentionRepository, RetentionSettingsInput, TenantRetentionRow } from '../retention/retention-rows.ts';
import { tenantRetention } from './schema/index.ts';

export type { RetentionRepository, RetentionSettingsInput, TenantRetentionRow } from '../retention/retention-rows.ts';

export function createRetentionRepository(db: Db): RetentionRepository {
  return {
    async get(tenantId: string): Promise<TenantRetentionRow | undefined> {
      const [row] = await db.select().from(tenantRetention).where(eq(tenantRetention.tenantId, tenantId));
      return row;
    },
    list(): Promise<TenantRetentionRow[]> {
      return db.select().from(tenantRetention).orderBy(tenantRetention.tenantId);
    },
    async upsert(input: RetentionSettingsInput): Promise<TenantRetentionRow> {
      const values = { ...input, updatedAt: new Date() };
      const [row] = await db.insert(tenantRetention).values(values).onConflictDoUpdate({ target: tenantRetention.tenantId, set: values }).returning();
      return row!;
    },
    /**
     * Purges the documents of up to `limit` of the tenant's runs that ended before `endedBefore` and are not
     * purged yet, oldest first, in one statement (rows another purge holds are skipped). Returns their ids.
     */
    async purgeEndedRuns(tenantId: string, endedBefore: Date, limit: number): Promise<string[]> {
      const result = await db.execute<{ id: string }>(sql`
        with victims as (
          select id, encode(sha256(convert_to(coalesce(
              (select body from run_documents d where d.run_id = runs.id and d.kind = 'request'), '{}'::jsonb)::text, 'UTF8')), 'hex') as request_hash
          from runs
          where tenant_id = ${tenantId} and purged_at is null and completed_at < ${endedBefore.toISOString()}::timestamptz
            and status in ('completed', 'failed', 'cancelled', 'expired')
          order by completed_at
          limit ${limit}
          for update skip locked
        ), purged as (
          update runs set pending_review = null, review_edits = '{}'::jsonb, purged_at = now()
          from victims where runs.id = victims.id
          returning runs.id, runs.tenant_id, runs.trace_id, runs.thread_id, victims.request_hash
        ), documents_purged as (
          -- Every document row goes: a run without them reads as an empty request and no bundle, candidate,
          -- issues or result (src/db/run-documents.ts).
          delete from run_documents where run_id in (select id from purged) returning 1
        ), decisions_purged as (
          update decisions set raw = '{}'::jsonb, edits = null, review = null, parsed = parsed - 'reply' - 'interpreter'
          where run_id in (select id from purged) returning 1
        ), executions_purged as (
          update executions set result = null where run_id in (select id from purged) returning 1
        ), shadow_purged as (
          update shadow_reports set v2_payload = null, v3_payload = null, diff = '[]'::jsonb where run_id in (select id from purged) returning 1
        ), trail as (
          insert into run_events (run_id, tenant_id, type, actor, data, trace_id, thread_id)
          select id, tenant_id, 'run.purged', 'system:retention', jsonb_build_object('requestSha256', request_hash), trace_id, thread_id from purged
          returning 1
        )
        select id from purged`);
      return result.rows.map((row) => row.id);
    },
  };
}
