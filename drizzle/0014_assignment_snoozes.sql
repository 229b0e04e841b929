ALTER TABLE "runs" ADD COLUMN "assigned_to" text;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "snoozes" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "reviewers" ADD COLUMN "available" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "reviewers" ADD COLUMN "last_assigned_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "runs_tenant_assigned_idx" ON "runs" USING btree ("tenant_id","assigned_to") WHERE "runs"."pending_review_id" is not null and "runs"."assigned_to" is not null;--> statement-breakpoint
-- A reassignment (or a delegation) is in the audit chain like the first assignment; its event names the new
-- assignee (target) and its action (reassign, delegate, unassign).
DROP TRIGGER run_events_audit ON run_events;--> statement-breakpoint
CREATE TRIGGER run_events_audit AFTER INSERT ON run_events FOR EACH ROW
  WHEN (NEW.type IN ('review.created', 'review.decided', 'review.re_asked', 'review.claimed', 'review.released', 'review.assigned',
    'review.reassigned', 'review.reminded', 'review.escalated', 'run.expired')
    OR (NEW.type = 'run.cancelled' AND NEW.data ? 'reviewId' AND NEW.data->>'code' IS DISTINCT FROM 'REJECTED'))
  EXECUTE FUNCTION vetted_audit_append();
