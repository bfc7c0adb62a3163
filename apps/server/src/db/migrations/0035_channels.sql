CREATE TABLE "channel_sends" (
	"id" serial PRIMARY KEY NOT NULL,
	"enterprise_id" integer NOT NULL,
	"channel_id" integer NOT NULL,
	"incident_id" integer,
	"event" text NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"link" text,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "notify_channels" (
	"id" serial PRIMARY KEY NOT NULL,
	"enterprise_id" integer NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"webhook" text,
	"secret" text,
	"recipients" text[] DEFAULT '{}' NOT NULL,
	"levels" text[] NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "channel_sends" ADD CONSTRAINT "channel_sends_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_sends" ADD CONSTRAINT "channel_sends_channel_id_notify_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."notify_channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_sends" ADD CONSTRAINT "channel_sends_incident_id_incidents_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incidents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notify_channels" ADD CONSTRAINT "notify_channels_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "channel_sends_due_idx" ON "channel_sends" USING btree ("next_attempt_at") WHERE state = 'pending';--> statement-breakpoint
CREATE INDEX "channel_sends_channel_idx" ON "channel_sends" USING btree ("enterprise_id","channel_id","created_at");--> statement-breakpoint
CREATE INDEX "notify_channels_enterprise_idx" ON "notify_channels" USING btree ("enterprise_id");