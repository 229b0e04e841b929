CREATE TABLE "run_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"run_id" uuid NOT NULL,
	"tenant_id" text NOT NULL,
	"type" text NOT NULL,
	"actor" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"trace_id" text NOT NULL,
	"thread_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "runs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"request_key" text,
	"status" text NOT NULL,
	"stage" text NOT NULL,
	"attempt" integer DEFAULT 0 NOT NULL,
	"trace_id" text NOT NULL,
	"thread_id" text NOT NULL,
	"user_id" text,
	"session_id" text,
	"model" text,
	"schema_key" text,
	"schema_hash" text,
	"builder" text NOT NULL,
	"provider" text NOT NULL,
	"policy" jsonb NOT NULL,
	"request" jsonb NOT NULL,
	"bundle" jsonb,
	"candidate" jsonb,
	"issues" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"pending_review" jsonb,
	"pending_review_id" uuid,
	"parked_at" timestamp with time zone,
	"approved_payload_hash" text,
	"review_edits" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"execution_seq" integer DEFAULT 1 NOT NULL,
	"result" jsonb,
	"error" jsonb,
	"paused_from" text,
	"review_expires_at" timestamp with time zone,
	"stage_started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "model_examples" (
	"schema_key" text PRIMARY KEY NOT NULL,
	"quarantine" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "model_schemas" (
	"schema_key" text PRIMARY KEY NOT NULL,
	"model" text,
	"version" text,
	"schema_hash" text NOT NULL,
	"model_schema" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "models" (
	"tenant_id" text NOT NULL,
	"ref" text NOT NULL,
	"schema_key" text NOT NULL,
	"source" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "models_tenant_id_ref_pk" PRIMARY KEY("tenant_id","ref")
);
--> statement-breakpoint
CREATE TABLE "executions" (
	"run_id" uuid NOT NULL,
	"step" text NOT NULL,
	"status" text NOT NULL,
	"provider" text NOT NULL,
	"payload_hash" text NOT NULL,
	"prediction_id" text,
	"result" jsonb,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "executions_run_id_step_pk" PRIMARY KEY("run_id","step")
);
--> statement-breakpoint
CREATE TABLE "decisions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"run_id" uuid NOT NULL,
	"tenant_id" text NOT NULL,
	"review_id" uuid NOT NULL,
	"actor" text NOT NULL,
	"action" text NOT NULL,
	"raw" jsonb NOT NULL,
	"parsed" jsonb NOT NULL,
	"edits" jsonb,
	"override" boolean DEFAULT false NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"role" text NOT NULL,
	"permissions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"secret_hash" text NOT NULL,
	"label" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "run_events" ADD CONSTRAINT "run_events_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "model_examples" ADD CONSTRAINT "model_examples_schema_key_model_schemas_schema_key_fk" FOREIGN KEY ("schema_key") REFERENCES "public"."model_schemas"("schema_key") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "models" ADD CONSTRAINT "models_schema_key_model_schemas_schema_key_fk" FOREIGN KEY ("schema_key") REFERENCES "public"."model_schemas"("schema_key") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "executions" ADD CONSTRAINT "executions_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "decisions" ADD CONSTRAINT "decisions_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "run_events_run_id_idx" ON "run_events" USING btree ("run_id","id");--> statement-breakpoint
CREATE INDEX "run_events_type_at_idx" ON "run_events" USING btree ("type","at");--> statement-breakpoint
CREATE UNIQUE INDEX "runs_tenant_request_key_idx" ON "runs" USING btree ("tenant_id","request_key") WHERE "runs"."request_key" is not null;--> statement-breakpoint
CREATE INDEX "runs_tenant_status_created_idx" ON "runs" USING btree ("tenant_id","status","created_at");--> statement-breakpoint
CREATE INDEX "runs_tenant_created_idx" ON "runs" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "runs_tenant_session_idx" ON "runs" USING btree ("tenant_id","session_id");--> statement-breakpoint
CREATE INDEX "runs_tenant_user_idx" ON "runs" USING btree ("tenant_id","user_id");--> statement-breakpoint
CREATE INDEX "runs_status_updated_idx" ON "runs" USING btree ("status","updated_at");--> statement-breakpoint
CREATE INDEX "runs_pending_review_id_idx" ON "runs" USING btree ("pending_review_id");--> statement-breakpoint
CREATE INDEX "runs_tenant_parked_idx" ON "runs" USING btree ("tenant_id","parked_at") WHERE "runs"."status" = 'awaiting_human';--> statement-breakpoint
CREATE INDEX "decisions_run_idx" ON "decisions" USING btree ("run_id","at");