CREATE TABLE "weather_sources" (
	"enterprise_id" integer PRIMARY KEY NOT NULL,
	"provider" text DEFAULT 'files' NOT NULL,
	"url" text,
	"every_minutes" integer DEFAULT 60 NOT NULL,
	"last_fetch_at" timestamp with time zone,
	"last_error" text,
	"lease_until" timestamp with time zone,
	"lease_owner" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "weather_warning_messages" (
	"enterprise_id" integer NOT NULL,
	"sender" text NOT NULL,
	"identifier" text NOT NULL,
	"warning_id" integer NOT NULL,
	CONSTRAINT "weather_warning_messages_enterprise_id_sender_identifier_pk" PRIMARY KEY("enterprise_id","sender","identifier")
);
--> statement-breakpoint
ALTER TABLE "weather_warnings" ALTER COLUMN "level" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "weather_warnings" ADD COLUMN "identifier" text;--> statement-breakpoint
ALTER TABLE "weather_warnings" ADD COLUMN "sender" text;--> statement-breakpoint
ALTER TABLE "weather_warnings" ADD COLUMN "sender_name" text;--> statement-breakpoint
ALTER TABLE "weather_warnings" ADD COLUMN "event" text;--> statement-breakpoint
ALTER TABLE "weather_warnings" ADD COLUMN "headline" text;--> statement-breakpoint
ALTER TABLE "weather_warnings" ADD COLUMN "description" text;--> statement-breakpoint
ALTER TABLE "weather_warnings" ADD COLUMN "instruction" text;--> statement-breakpoint
ALTER TABLE "weather_warnings" ADD COLUMN "area_desc" text;--> statement-breakpoint
ALTER TABLE "weather_warnings" ADD COLUMN "updates" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "weather_warnings" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "weather_sources" ADD CONSTRAINT "weather_sources_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "weather_warning_messages" ADD CONSTRAINT "weather_warning_messages_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "weather_warning_messages" ADD CONSTRAINT "weather_warning_messages_warning_id_weather_warnings_id_fk" FOREIGN KEY ("warning_id") REFERENCES "public"."weather_warnings"("id") ON DELETE cascade ON UPDATE no action;