CREATE TABLE "task_types" (
	"tenant_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"schema" jsonb NOT NULL,
	"schema_hash" text NOT NULL,
	"auto_approve" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "task_types_tenant_id_name_pk" PRIMARY KEY("tenant_id","name")
);
--> statement-breakpoint
CREATE TABLE "tasks" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"task_type" text NOT NULL,
	"request_key" text,
	"status" text NOT NULL,
	"routing" text NOT NULL,
	"confidence" text NOT NULL,
	"impact" text NOT NULL,
	"payload" jsonb NOT NULL,
	"why_escalated" text NOT NULL,
	"missing_information" jsonb NOT NULL,
	"submitter" jsonb NOT NULL,
	"submitted_by" text NOT NULL,
	"schema_hash" text NOT NULL,
	"review" jsonb,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reviewed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "notification_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"subject_kind" text NOT NULL,
	"subject_id" text NOT NULL,
	"event" text NOT NULL,
	"channel" text NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"lease_until" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_settings" (
	"tenant_id" text PRIMARY KEY NOT NULL,
	"slack_webhook_url" text,
	"email" text,
	"webhook_url" text,
	"near_expiry_seconds" integer NOT NULL,
	"events" jsonb NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "tasks_tenant_request_key_idx" ON "tasks" USING btree ("tenant_id","request_key") WHERE "tasks"."request_key" is not null;--> statement-breakpoint
CREATE INDEX "tasks_tenant_status_submitted_idx" ON "tasks" USING btree ("tenant_id","status","submitted_at","id");--> statement-breakpoint
CREATE INDEX "tasks_tenant_type_status_idx" ON "tasks" USING btree ("tenant_id","task_type","status","submitted_at");--> statement-breakpoint
CREATE INDEX "tasks_submitted_idx" ON "tasks" USING btree ("submitted_at");--> statement-breakpoint
CREATE INDEX "tasks_reviewed_idx" ON "tasks" USING btree ("reviewed_at") WHERE "tasks"."reviewed_at" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "notification_deliveries_once_idx" ON "notification_deliveries" USING btree ("subject_kind","subject_id","event","channel");--> statement-breakpoint
CREATE INDEX "decisions_at_idx" ON "decisions" USING btree ("at");