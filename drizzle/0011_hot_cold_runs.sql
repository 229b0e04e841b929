-- Hot and cold apart. The large documents of a run (request, bundle, candidate, issues, result) move to
-- run_documents, one row per kind, written by the move that produced each; runs keeps the small fields a
-- stage move changes. runs is rebuilt rather than altered so its columns take the order in
-- src/db/schema/runs.ts (the columns every move changes last: an update on the same page logs only the changed
-- tail). Documents of purged runs were already blanked; an empty document (null, [] issues, a purged request)
-- is stored as no row.
CREATE TABLE "run_documents" (
	"run_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"attempt" integer NOT NULL,
	"body" jsonb NOT NULL,
	"written_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "run_documents_run_id_kind_pk" PRIMARY KEY("run_id","kind"),
	CONSTRAINT "run_documents_kind_check" CHECK ("run_documents"."kind" in ('request', 'bundle', 'candidate', 'issues', 'result'))
);
--> statement-breakpoint
INSERT INTO "run_documents" ("run_id", "kind", "attempt", "body", "written_at")
SELECT r."id", d."kind", r."attempt", d."body", r."updated_at"
FROM "runs" r
CROSS JOIN LATERAL (VALUES
	('request', CASE WHEN r."purged_at" IS NULL THEN r."request" END),
	('bundle', r."bundle"),
	('candidate', r."candidate"),
	('issues', CASE WHEN r."issues" <> '[]'::jsonb THEN r."issues" END),
	('result', r."result")
) AS d("kind", "body")
WHERE d."body" IS NOT NULL AND d."body" <> 'null'::jsonb;
--> statement-breakpoint
CREATE TABLE "runs_hot" (
	"id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"tenant_id" text NOT NULL,
	"trace_id" text NOT NULL,
	"thread_id" text NOT NULL,
	"request_key" text,
	"user_id" text,
	"session_id" text,
	"builder" text NOT NULL,
	"provider" text NOT NULL,
	"policy" jsonb NOT NULL,
	"model" text,
	"schema_key" text,
	"schema_hash" text,
	"execution_seq" integer DEFAULT 1 NOT NULL,
	"review_edits" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"approved_payload_hash" text,
	"recheck" text,
	"paused_from" text,
	"error" jsonb,
	"purged_at" timestamp with time zone,
	"pending_review" jsonb,
	"pending_review_id" uuid,
	"parked_at" timestamp with time zone,
	"review_expires_at" timestamp with time zone,
	"claimed_by" text,
	"claim_expires_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"stage_started_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempt" integer DEFAULT 0 NOT NULL,
	"stage" text NOT NULL,
	"status" text NOT NULL
) WITH (fillfactor = 70);
--> statement-breakpoint
INSERT INTO "runs_hot" ("id", "created_at", "tenant_id", "trace_id", "thread_id", "request_key", "user_id", "session_id", "builder", "provider", "policy", "model", "schema_key", "schema_hash", "execution_seq", "review_edits", "approved_payload_hash", "recheck", "paused_from", "error", "purged_at", "pending_review", "pending_review_id", "parked_at", "review_expires_at", "claimed_by", "claim_expires_at", "completed_at", "stage_started_at", "updated_at", "attempt", "stage", "status")
SELECT "id", "created_at", "tenant_id", "trace_id", "thread_id", "request_key", "user_id", "session_id", "builder", "provider", "policy", "model", "schema_key", "schema_hash", "execution_seq", "review_edits", "approved_payload_hash", "recheck", "paused_from", "error", "purged_at", "pending_review", "pending_review_id", "parked_at", "review_expires_at", "claimed_by", "claim_expires_at", "completed_at", "stage_started_at", "updated_at", "attempt", "stage", "status"
FROM "runs";
--> statement-breakpoint
ALTER TABLE "decisions" DROP CONSTRAINT "decisions_run_id_runs_id_fk";--> statement-breakpoint
ALTER TABLE "shadow_reports" DROP CONSTRAINT "shadow_reports_run_id_runs_id_fk";--> statement-breakpoint
DROP TABLE "runs";--> statement-breakpoint
ALTER TABLE "runs_hot" RENAME TO "runs";--> statement-breakpoint
ALTER TABLE "runs" ADD CONSTRAINT "runs_pkey" PRIMARY KEY ("id");--> statement-breakpoint
CREATE UNIQUE INDEX "runs_tenant_request_key_idx" ON "runs" USING btree ("tenant_id","request_key") WHERE "runs"."request_key" is not null;--> statement-breakpoint
CREATE INDEX "runs_tenant_created_idx" ON "runs" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "runs_tenant_session_idx" ON "runs" USING btree ("tenant_id","session_id") WHERE "runs"."session_id" is not null;--> statement-breakpoint
CREATE INDEX "runs_tenant_user_idx" ON "runs" USING btree ("tenant_id","user_id") WHERE "runs"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "runs_unfinished_idx" ON "runs" USING btree ("created_at") WHERE "runs"."completed_at" is null and "runs"."pending_review_id" is null;--> statement-breakpoint
CREATE INDEX "runs_completed_idx" ON "runs" USING btree ("completed_at") WHERE "runs"."completed_at" is not null;--> statement-breakpoint
CREATE INDEX "runs_pending_review_id_idx" ON "runs" USING btree ("pending_review_id") WHERE "runs"."pending_review_id" is not null;--> statement-breakpoint
CREATE INDEX "runs_tenant_parked_idx" ON "runs" USING btree ("tenant_id","parked_at") WHERE "runs"."pending_review_id" is not null;--> statement-breakpoint
CREATE INDEX "runs_tenant_checkpoint_parked_idx" ON "runs" USING btree ("tenant_id",("pending_review" ->> 'checkpoint'),"parked_at","id") WHERE "runs"."pending_review_id" is not null;--> statement-breakpoint
CREATE INDEX "runs_tenant_model_parked_idx" ON "runs" USING btree ("tenant_id","model","parked_at","id") WHERE "runs"."pending_review_id" is not null;--> statement-breakpoint
CREATE INDEX "runs_review_expiry_idx" ON "runs" USING btree ("review_expires_at") WHERE "runs"."pending_review_id" is not null;--> statement-breakpoint
ALTER TABLE "decisions" ADD CONSTRAINT "decisions_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shadow_reports" ADD CONSTRAINT "shadow_reports_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;
