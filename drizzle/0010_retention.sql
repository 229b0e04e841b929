CREATE TABLE "tenant_retention" (
	"tenant_id" text PRIMARY KEY NOT NULL,
	"documents_days" integer,
	"mask_pii" boolean DEFAULT false NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "purged_at" timestamp with time zone;