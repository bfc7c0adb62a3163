CREATE TABLE "audit_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"kind" text NOT NULL,
	"enterprise_id" integer,
	"user_id" integer,
	"username" text,
	"role" text,
	"method" text NOT NULL,
	"route" text NOT NULL,
	"object" text NOT NULL,
	"object_id" text,
	"changes" jsonb,
	"outcome" text NOT NULL,
	"status" integer NOT NULL,
	"address" text,
	"user_agent" text
);
--> statement-breakpoint
CREATE INDEX "audit_events_enterprise_idx" ON "audit_events" USING btree ("enterprise_id","id");--> statement-breakpoint
CREATE INDEX "audit_events_object_idx" ON "audit_events" USING btree ("enterprise_id","object","object_id","id");--> statement-breakpoint
CREATE INDEX "audit_events_at_idx" ON "audit_events" USING brin ("at");--> statement-breakpoint
-- Append-only: no update, no truncate; a delete only by the retention job (which says so for its
-- transaction) and only of records past the 180-day floor (MLPS 2.0 level 3).
CREATE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('console.audit_prune', true) = 'on' AND OLD.at < now() - interval '180 days' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit records cannot be changed or removed (%)', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE TRIGGER audit_events_no_change BEFORE UPDATE OR DELETE ON "audit_events" FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();
--> statement-breakpoint
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON "audit_events" FOR EACH STATEMENT EXECUTE FUNCTION audit_events_append_only();
