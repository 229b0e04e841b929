CREATE TABLE "reviewers" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"name" text NOT NULL,
	"role" text NOT NULL,
	"team" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "claimed_by" text;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "claim_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "decisions" ADD COLUMN "review" jsonb;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "reviewer_id" text;--> statement-breakpoint
CREATE INDEX "reviewers_tenant_idx" ON "reviewers" USING btree ("tenant_id","name");--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_reviewer_id_reviewers_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."reviewers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "decisions_review_idx" ON "decisions" USING btree ("review_id");--> statement-breakpoint
CREATE INDEX "decisions_tenant_at_idx" ON "decisions" USING btree ("tenant_id","at","id");