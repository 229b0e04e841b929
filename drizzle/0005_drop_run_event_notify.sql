-- Live event streams poll run_events instead (src/services/event-hub.ts): a NOTIFY per event serialised the
-- commit of every stage move behind a lock that all notifying transactions share.
DROP TRIGGER IF EXISTS run_events_notify ON run_events;
--> statement-breakpoint
DROP FUNCTION IF EXISTS vetted_notify_run_event();
