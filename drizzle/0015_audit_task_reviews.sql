ALTER TABLE "audit_records" ALTER COLUMN "run_id" DROP NOT NULL;--> statement-breakpoint
-- One writer of the chain for runs and review tasks alike: the per-tenant lock, the record before, the hash
-- (sha256 over the JSON array text of the fields in a fixed order, as src/audit/audit-record.ts computes it).
CREATE OR REPLACE FUNCTION vetted_audit_write(rec_tenant text, rec_at_raw timestamptz, rec_run uuid, rec_review uuid, rec_type text,
  rec_actor text, rec_action text, rec_override boolean, rec_payload text, rec_target text) RETURNS void AS $$
DECLARE
  prev_seq bigint;
  prev_hash text;
  rec_at timestamptz := date_trunc('milliseconds', rec_at_raw);
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('vetted_audit:' || rec_tenant, 0));
  SELECT seq, hash INTO prev_seq, prev_hash FROM audit_records WHERE tenant_id = rec_tenant ORDER BY seq DESC LIMIT 1;
  prev_seq := coalesce(prev_seq, 0) + 1;
  prev_hash := coalesce(prev_hash, repeat('0', 64));
  INSERT INTO audit_records (tenant_id, seq, at, run_id, review_id, type, actor, action, payload_hash, target, override, prev_hash, hash)
  VALUES (rec_tenant, prev_seq, rec_at, rec_run, rec_review, rec_type, rec_actor, rec_action, rec_payload, rec_target, rec_override, prev_hash,
    encode(sha256(convert_to(array_to_json(ARRAY[
      prev_hash, prev_seq::text, to_char(rec_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), rec_tenant, rec_run::text,
      rec_review::text, rec_type, rec_actor, rec_action, rec_override::text, rec_payload, rec_target
    ])::text, 'UTF8')), 'hex'));
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION vetted_audit_append() RETURNS trigger AS $$
BEGIN
  PERFORM vetted_audit_write(NEW.tenant_id, NEW.at, NEW.run_id, (NEW.data->>'reviewId')::uuid, NEW.type, NEW.actor,
    coalesce(NEW.data->>'action', CASE NEW.type
      WHEN 'review.created' THEN 'raise' WHEN 'review.re_asked' THEN 'reply' WHEN 'review.claimed' THEN 'claim'
      WHEN 'review.released' THEN 'release' WHEN 'review.assigned' THEN 'assign' WHEN 'review.reminded' THEN 'remind'
      WHEN 'review.escalated' THEN 'escalate' WHEN 'run.expired' THEN 'expire' WHEN 'run.cancelled' THEN 'cancel'
      ELSE NEW.type END),
    coalesce((NEW.data->>'override')::boolean, false), NEW.data->>'payloadHash', coalesce(NEW.data->>'assignee', NEW.data->>'escalateTo'));
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- A review task's decision (a person's, or the routing policy's at submission) is a record of the same chain:
-- type task.reviewed, no run, the task id as reviewId, the action approve or reject, the actor as recorded.
CREATE OR REPLACE FUNCTION vetted_audit_task() RETURNS trigger AS $$
BEGIN
  PERFORM vetted_audit_write(NEW.tenant_id, coalesce(NEW.reviewed_at, now()), NULL, NEW.id, 'task.reviewed',
    coalesce(NEW.review->>'actor', 'system:routing'), CASE NEW.status WHEN 'approved' THEN 'approve' ELSE 'reject' END,
    false, NULL, NULL);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER tasks_audit_reviewed AFTER UPDATE OF status ON tasks FOR EACH ROW
  WHEN (OLD.status = 'pending' AND NEW.status <> 'pending')
  EXECUTE FUNCTION vetted_audit_task();
--> statement-breakpoint
CREATE TRIGGER tasks_audit_decided_at_submission AFTER INSERT ON tasks FOR EACH ROW
  WHEN (NEW.status <> 'pending')
  EXECUTE FUNCTION vetted_audit_task();
