DROP INDEX "run_events_type_at_idx";--> statement-breakpoint
DROP INDEX "runs_tenant_status_created_idx";--> statement-breakpoint
DROP INDEX "runs_tenant_session_idx";--> statement-breakpoint
DROP INDEX "runs_tenant_user_idx";--> statement-breakpoint
DROP INDEX "runs_pending_review_id_idx";--> statement-breakpoint
CREATE INDEX "runs_review_expiry_idx" ON "runs" USING btree ("review_expires_at") WHERE "runs"."status" = 'awaiting_human';--> statement-breakpoint
CREATE INDEX "runs_tenant_session_idx" ON "runs" USING btree ("tenant_id","session_id") WHERE "runs"."session_id" is not null;--> statement-breakpoint
CREATE INDEX "runs_tenant_user_idx" ON "runs" USING btree ("tenant_id","user_id") WHERE "runs"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "runs_pending_review_id_idx" ON "runs" USING btree ("pending_review_id") WHERE "runs"."pending_review_id" is not null;