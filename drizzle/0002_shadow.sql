CREATE TABLE "shadow_reports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"run_id" uuid NOT NULL,
	"run_attempt" integer NOT NULL,
	"tenant_id" text NOT NULL,
	"model" text,
	"builder" text NOT NULL,
	"status" text NOT NULL,
	"failure_reason" text,
	"v2_payload" jsonb,
	"v3_payload" jsonb,
	"diff" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"leaks" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"v3_leaks" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"leaked_fields" text[] DEFAULT '{}'::text[] NOT NULL,
	"leak_count" integer DEFAULT 0 NOT NULL,
	"v3_leak_count" integer DEFAULT 0 NOT NULL,
	"fields_differing" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shadow_settings" (
	"tenant_id" text NOT NULL,
	"model" text,
	"sample_rate" double precision NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shadow_settings_rate_check" CHECK ("shadow_settings"."sample_rate" >= 0 and "shadow_settings"."sample_rate" <= 1)
);
--> statement-breakpoint
ALTER TABLE "shadow_reports" ADD CONSTRAINT "shadow_reports_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "shadow_reports_run_attempt_idx" ON "shadow_reports" USING btree ("run_id","run_attempt");--> statement-breakpoint
CREATE INDEX "shadow_reports_tenant_created_idx" ON "shadow_reports" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "shadow_reports_tenant_model_created_idx" ON "shadow_reports" USING btree ("tenant_id","model","created_at");--> statement-breakpoint
CREATE INDEX "shadow_reports_leaked_fields_idx" ON "shadow_reports" USING gin ("leaked_fields");--> statement-breakpoint
CREATE UNIQUE INDEX "shadow_settings_tenant_idx" ON "shadow_settings" USING btree ("tenant_id") WHERE "shadow_settings"."model" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "shadow_settings_tenant_model_idx" ON "shadow_settings" USING btree ("tenant_id","model") WHERE "shadow_settings"."model" is not null;