CREATE TABLE "alert_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"alert_id" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" integer,
	"action" text NOT NULL,
	"from_state" text,
	"to_state" text NOT NULL,
	"note" text,
	"details" jsonb
);
--> statement-breakpoint
CREATE TABLE "alert_photos" (
	"id" serial PRIMARY KEY NOT NULL,
	"enterprise_id" integer NOT NULL,
	"event_id" bigint NOT NULL,
	"file_name" text NOT NULL,
	"mimetype" text NOT NULL,
	"size" integer NOT NULL,
	"path" text NOT NULL,
	"uploaded_by" integer,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_settings" (
	"enterprise_id" integer PRIMARY KEY NOT NULL,
	"settings" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" serial PRIMARY KEY NOT NULL,
	"enterprise_id" integer NOT NULL,
	"source" text NOT NULL,
	"rule" text NOT NULL,
	"object_key" text NOT NULL,
	"occurrence" text DEFAULT '' NOT NULL,
	"object_id" bigint,
	"subject" text NOT NULL,
	"level" text NOT NULL,
	"state" text DEFAULT 'new' NOT NULL,
	"value" double precision,
	"unit" text,
	"threshold" double precision,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"geometry" jsonb NOT NULL,
	"lon" double precision NOT NULL,
	"lat" double precision NOT NULL,
	"minx" double precision NOT NULL,
	"miny" double precision NOT NULL,
	"maxx" double precision NOT NULL,
	"maxy" double precision NOT NULL,
	"pipe_ids" text[] DEFAULT '{}' NOT NULL,
	"pipe_count" integer DEFAULT 0 NOT NULL,
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
ALTER TABLE "alert_events" ADD CONSTRAINT "alert_events_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_events" ADD CONSTRAINT "alert_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_photos" ADD CONSTRAINT "alert_photos_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_photos" ADD CONSTRAINT "alert_photos_event_id_alert_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."alert_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_photos" ADD CONSTRAINT "alert_photos_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_settings" ADD CONSTRAINT "alert_settings_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_events_alert_idx" ON "alert_events" USING btree ("alert_id","at");--> statement-breakpoint
CREATE INDEX "alert_photos_event_idx" ON "alert_photos" USING btree ("event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_occurrence_idx" ON "alerts" USING btree ("enterprise_id","rule","object_key","occurrence");--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_open_object_idx" ON "alerts" USING btree ("enterprise_id","rule","object_key") WHERE state in ('new', 'confirmed', 'dispatched', 'handling', 'handled');--> statement-breakpoint
CREATE INDEX "alerts_list_idx" ON "alerts" USING btree ("enterprise_id","state","raised_at");--> statement-breakpoint
CREATE INDEX "alerts_box_idx" ON "alerts" USING gist (box(point("minx", "miny"), point("maxx", "maxy")));