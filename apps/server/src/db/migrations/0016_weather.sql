CREATE TABLE "weather_hours" (
	"place_id" integer NOT NULL,
	"kind" text NOT NULL,
	"time" timestamp with time zone NOT NULL,
	"precipitation" double precision,
	"temperature" double precision,
	"wind_speed" double precision,
	"wind_gust" double precision,
	CONSTRAINT "weather_hours_place_id_kind_time_pk" PRIMARY KEY("place_id","kind","time")
);
--> statement-breakpoint
CREATE TABLE "weather_places" (
	"id" serial PRIMARY KEY NOT NULL,
	"enterprise_id" integer NOT NULL,
	"project_id" integer,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"lon" double precision NOT NULL,
	"lat" double precision NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "weather_warnings" (
	"id" serial PRIMARY KEY NOT NULL,
	"enterprise_id" integer NOT NULL,
	"place_id" integer,
	"source" text NOT NULL,
	"basis" text,
	"type" text NOT NULL,
	"level" text NOT NULL,
	"start" timestamp with time zone NOT NULL,
	"end" timestamp with time zone NOT NULL,
	"value" double precision,
	"rule" text,
	"levels" jsonb NOT NULL,
	"area" jsonb NOT NULL,
	"touches" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "weather_hours" ADD CONSTRAINT "weather_hours_place_id_weather_places_id_fk" FOREIGN KEY ("place_id") REFERENCES "public"."weather_places"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "weather_places" ADD CONSTRAINT "weather_places_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "weather_places" ADD CONSTRAINT "weather_places_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "weather_warnings" ADD CONSTRAINT "weather_warnings_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "weather_warnings" ADD CONSTRAINT "weather_warnings_place_id_weather_places_id_fk" FOREIGN KEY ("place_id") REFERENCES "public"."weather_places"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "weather_places_code_idx" ON "weather_places" USING btree ("enterprise_id","code");--> statement-breakpoint
CREATE INDEX "weather_warnings_enterprise_idx" ON "weather_warnings" USING btree ("enterprise_id","start");