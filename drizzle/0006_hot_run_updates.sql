ALTER TABLE "run_events" DROP CONSTRAINT "run_events_run_id_runs_id_fk";
--> statement-breakpoint
ALTER TABLE "executions" DROP CONSTRAINT "executions_run_id_runs_id_fk";
--> statement-breakpoint
DROP INDEX "runs_status_updated_idx";--> statement-breakpoint
DROP INDEX "runs_tenant_parked_idx";--> statement-breakpoint
DROP INDEX "runs_tenant_checkpoint_parked_idx";--> statement-breakpoint
DROP INDEX "runs_tenant_model_parked_idx";--> statement-breakpoint
DROP INDEX "runs_review_expiry_idx";--> statement-breakpoint
CREATE INDEX "runs_unfinished_idx" ON "runs" USING btree ("created_at") WHERE "runs"."completed_at" is null and "runs"."pending_review_id" is null;--> statement-breakpoint
CREATE INDEX "runs_completed_idx" ON "runs" USING btree ("completed_at") WHERE "runs"."completed_at" is not null;--> statement-breakpoint
CREATE INDEX "runs_tenant_parked_idx" ON "runs" USING btree ("tenant_id","parked_at") WHERE "runs"."pending_review_id" is not null;--> statement-breakpoint
CREATE INDEX "runs_tenant_checkpoint_parked_idx" ON "runs" USING btree ("tenant_id",("pending_review" ->> 'checkpoint'),"parked_at","id") WHERE "runs"."pending_review_id" is not null;--> statement-breakpoint
CREATE INDEX "runs_tenant_model_parked_idx" ON "runs" USING btree ("tenant_id","model","parked_at","id") WHERE "runs"."pending_review_id" is not null;--> statement-breakpoint
CREATE INDEX "runs_review_expiry_idx" ON "runs" USING btree ("review_expires_at") WHERE "runs"."pending_review_id" is not null;--> statement-breakpoint
-- Room on each page for the new versions of its runs: a stage move is a HOT update only when the new
-- version fits on the page of the old one (see the runs table in src/db/schema/runs.ts).
ALTER TABLE "runs" SET (fillfactor = 50);