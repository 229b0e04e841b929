-- Live event streams: every new run event wakes the API's LISTEN connection, which then reads the new
-- rows. The payload is only the run id (NOTIFY payloads are small and the table is the source of truth).
CREATE OR REPLACE FUNCTION vetted_notify_run_event() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('vetted_run_events', NEW.run_id::text);
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER run_events_notify AFTER INSERT ON run_events
  FOR EACH ROW EXECUTE FUNCTION vetted_notify_run_event();
