CREATE TABLE "decision_link_uses" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"review_id" text NOT NULL,
	"reviewer_id" text NOT NULL,
	"action" text NOT NULL,
	"used_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "reviewers" ADD COLUMN "slack_user_id" text;--> statement-breakpoint
ALTER TABLE "reviewers" ADD COLUMN "email" text;--> statement-breakpoint
CREATE UNIQUE INDEX "reviewers_tenant_slack_user_idx" ON "reviewers" USING btree ("tenant_id","slack_user_id");--> statement-breakpoint
CREATE INDEX "reviewers_tenant_email_idx" ON "reviewers" USING btree ("tenant_id","email");