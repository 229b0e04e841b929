CREATE TABLE "audit_records" (
	"tenant_id" text NOT NULL,
	"seq" bigint NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"run_id" uuid NOT NULL,
	"review_id" uuid,
	"type" text NOT NULL,
	"actor" text NOT NULL,
	"action" text NOT NULL,
	"payload_hash" text,
	"target" text,
	"override" boolean DEFAULT false NOT NULL,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "audit_records_tenant_id_seq_pk" PRIMARY KEY("tenant_id","seq")
);
--> statement-breakpoint
CREATE INDEX "audit_records_tenant_at_idx" ON "audit_records" USING btree ("tenant_id","at");--> statement-breakpoint
-- The chain is written as the review events commit, by one function for every writer (the API, the workers,
-- the embedded runner): a per-tenant advisory lock orders the tenant's records, and each hashes the record
-- before it. The hash is sha256 over the JSON array text of the record's fields in a fixed order;
-- src/audit/audit-record.ts computes the same to verify an export. Only review events take the lock, so stage
-- moves never wait on it.
CREATE OR REPLACE FUNCTION vetted_audit_append() RETURNS trigger AS $$
DECLARE
  prev_seq bigint;
  prev_hash text;
  rec_at timestamptz := date_trunc('milliseconds', NEW.at);
  rec_review uuid := (NEW.data->>'reviewId')::uuid;
  rec_action text := coalesce(NEW.data->>'action', CASE NEW.type
    WHEN 'review.created' THEN 'raise' WHEN 'review.re_asked' THEN 'reply' WHEN 'review.claimed' THEN 'claim'
    WHEN 'review.released' THEN 'release' WHEN 'review.assigned' THEN 'assign' WHEN 'review.reminded' THEN 'remind'
    WHEN 'review.escalated' THEN 'escalate' WHEN 'run.expired' THEN 'expire' WHEN 'run.cancelled' THEN 'cancel'
    ELSE NEW.type END);
  rec_override boolean := coalesce((NEW.data->>'override')::boolean, false);
  rec_payload text := NEW.data->>'payloadHash';
  rec_target text := coalesce(NEW.data->>'assignee', NEW.data->>'escalateTo');
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('vetted_audit:' || NEW.tenant_id, 0));
  SELECT seq, hash INTO prev_seq, prev_hash FROM audit_records WHERE tenant_id = NEW.tenant_id ORDER BY seq DESC LIMIT 1;
  prev_seq := coalesce(prev_seq, 0) + 1;
  prev_hash := coalesce(prev_hash, repeat('0', 64));
  INSERT INTO audit_records (tenant_id, seq, at, run_id, review_id, type, actor, action, payload_hash, target, override, prev_hash, hash)
  VALUES (NEW.tenant_id, prev_seq, rec_at, NEW.run_id, rec_review, NEW.type, NEW.actor, rec_action, rec_payload, rec_target, rec_override, prev_hash,
    encode(sha256(convert_to(array_to_json(ARRAY[
      prev_hash, prev_seq::text, to_char(rec_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), NEW.tenant_id, NEW.run_id::text,
      rec_review::text, NEW.type, NEW.actor, rec_action, rec_override::text, rec_payload, rec_target
    ])::text, 'UTF8')), 'hex'));
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER run_events_audit AFTER INSERT ON run_events FOR EACH ROW
  WHEN (NEW.type IN ('review.created', 'review.decided', 'review.re_asked', 'review.claimed', 'review.released', 'review.assigned',
    'review.reminded', 'review.escalated', 'run.expired')
    OR (NEW.type = 'run.cancelled' AND NEW.data ? 'reviewId' AND NEW.data->>'code' IS DISTINCT FROM 'REJECTED'))
  EXECUTE FUNCTION vetted_audit_append();
