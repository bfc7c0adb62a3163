CREATE TABLE "incident_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"incident_id" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" integer,
	"action" text NOT NULL,
	"from_state" text,
	"to_state" text NOT NULL,
	"note" text,
	"details" jsonb,
	"idempotency_key" text
);
--> statement-breakpoint
CREATE TABLE "incidents" (
	"id" serial PRIMARY KEY NOT NULL,
	"enterprise_id" integer NOT NULL,
	"source" text NOT NULL,
	"group_key" text NOT NULL,
	"subject" text NOT NULL,
	"level" text NOT NULL,
	"state" text DEFAULT 'new' NOT NULL,
	"geometry" jsonb NOT NULL,
	"lon" double precision NOT NULL,
	"lat" double precision NOT NULL,
	"minx" double precision NOT NULL,
	"miny" double precision NOT NULL,
	"maxx" double precision NOT NULL,
	"maxy" double precision NOT NULL,
	"pipe_ids" text[] DEFAULT '{}' NOT NULL,
	"pipe_count" integer DEFAULT 0 NOT NULL,
	"member_count" integer DEFAULT 0 NOT NULL,
	"raised_at" timestamp with time zone DEFAULT now() NOT NULL,
	"first_response_at" timestamp with time zone,
	"organisation" text,
	"assignee_id" integer,
	"dispatched_at" timestamp with time zone,
	"deadline" timestamp with time zone,
	"handled_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"supervised" boolean DEFAULT false NOT NULL,
	"created_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alert_photos" DROP CONSTRAINT "alert_photos_event_id_alert_events_id_fk";
--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "incident_id" integer;--> statement-breakpoint
-- Alerts raised before incidents: each becomes an incident of its own, with the same id, state and
-- timeline (the timeline entries keep their ids, so their photos stay with them).
INSERT INTO "incidents" ("id", "enterprise_id", "source", "group_key", "subject", "level", "state", "geometry", "lon", "lat", "minx", "miny", "maxx", "maxy", "pipe_ids", "pipe_count", "member_count", "raised_at", "first_response_at", "organisation", "assignee_id", "dispatched_at", "deadline", "handled_at", "closed_at", "supervised", "created_by", "updated_at")
SELECT "id", "enterprise_id", "source",
  CASE "rule" WHEN 'manual' THEN 'manual:' || "id" WHEN 'settlementThreshold' THEN 'bowl:' || coalesce("details"->>'datasetId', '') WHEN 'pipeRiskRise' THEN 'riskRun' ELSE "object_key" END,
  "subject", "level", "state", "geometry", "lon", "lat", "minx", "miny", "maxx", "maxy", "pipe_ids", "pipe_count", 1, "raised_at", "first_response_at", "organisation", "assignee_id", "dispatched_at", "deadline", "handled_at", "closed_at", "supervised", "created_by", "updated_at"
FROM "alerts";--> statement-breakpoint
SELECT setval(pg_get_serial_sequence('incidents', 'id'), coalesce((SELECT max("id") FROM "incidents"), 0) + 1, false);--> statement-breakpoint
UPDATE "alerts" SET "incident_id" = "id";--> statement-breakpoint
INSERT INTO "incident_events" ("id", "incident_id", "at", "user_id", "action", "from_state", "to_state", "note", "details")
SELECT "id", "alert_id", "at", "user_id", "action", "from_state", "to_state", "note", "details" FROM "alert_events";--> statement-breakpoint
SELECT setval(pg_get_serial_sequence('incident_events', 'id'), coalesce((SELECT max("id") FROM "incident_events"), 0) + 1, false);--> statement-breakpoint
ALTER TABLE "incident_events" ADD CONSTRAINT "incident_events_incident_id_incidents_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incidents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_events" ADD CONSTRAINT "incident_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "incident_events_incident_idx" ON "incident_events" USING btree ("incident_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "incident_events_idempotency_idx" ON "incident_events" USING btree ("incident_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "incidents_list_idx" ON "incidents" USING btree ("enterprise_id","state","raised_at");--> statement-breakpoint
CREATE INDEX "incidents_group_idx" ON "incidents" USING btree ("enterprise_id","group_key") WHERE state in ('new', 'confirmed', 'dispatched', 'handling', 'handled');--> statement-breakpoint
CREATE INDEX "incidents_assignee_idx" ON "incidents" USING btree ("assignee_id","state");--> statement-breakpoint
CREATE INDEX "incidents_box_idx" ON "incidents" USING gist (box(point("minx", "miny"), point("maxx", "maxy")));--> statement-breakpoint
ALTER TABLE "alert_photos" ADD CONSTRAINT "alert_photos_event_id_incident_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."incident_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_incident_id_incidents_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incidents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alerts_incident_idx" ON "alerts" USING btree ("incident_id");--> statement-breakpoint
CREATE INDEX "alerts_ungrouped_idx" ON "alerts" USING btree ("enterprise_id") WHERE incident_id is null;