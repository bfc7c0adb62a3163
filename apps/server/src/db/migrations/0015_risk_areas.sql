CREATE TABLE "risk_area_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"area_id" integer NOT NULL,
	"user_id" integer,
	"action" text NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"details" jsonb,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "risk_area_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"enterprise_id" integer NOT NULL,
	"area_id" integer NOT NULL,
	"file_name" text NOT NULL,
	"mimetype" text NOT NULL,
	"size" integer NOT NULL,
	"path" text NOT NULL,
	"uploaded_by" integer,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "risk_areas" (
	"id" serial PRIMARY KEY NOT NULL,
	"enterprise_id" integer NOT NULL,
	"project_id" integer,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"level" text NOT NULL,
	"geometry" jsonb NOT NULL,
	"minx" double precision NOT NULL,
	"miny" double precision NOT NULL,
	"maxx" double precision NOT NULL,
	"maxy" double precision NOT NULL,
	"buffer_m" double precision NOT NULL,
	"cause" text,
	"trigger_rain_mm" double precision,
	"trigger_hours" double precision,
	"void_area_m2" double precision,
	"burial_depth_m" double precision,
	"clear_height_m" double precision,
	"source" text NOT NULL,
	"responsible_unit" text,
	"responsible_person" text,
	"responsible_phone" text,
	"notes" text,
	"status" text DEFAULT 'identified' NOT NULL,
	"pipes" jsonb,
	"networks" text[] DEFAULT '{}' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "risk_area_events" ADD CONSTRAINT "risk_area_events_area_id_risk_areas_id_fk" FOREIGN KEY ("area_id") REFERENCES "public"."risk_areas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_area_events" ADD CONSTRAINT "risk_area_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_area_files" ADD CONSTRAINT "risk_area_files_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_area_files" ADD CONSTRAINT "risk_area_files_area_id_risk_areas_id_fk" FOREIGN KEY ("area_id") REFERENCES "public"."risk_areas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_area_files" ADD CONSTRAINT "risk_area_files_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_areas" ADD CONSTRAINT "risk_areas_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_areas" ADD CONSTRAINT "risk_areas_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_areas" ADD CONSTRAINT "risk_areas_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "risk_area_events_area_idx" ON "risk_area_events" USING btree ("area_id","at");--> statement-breakpoint
CREATE INDEX "risk_area_files_area_idx" ON "risk_area_files" USING btree ("area_id");--> statement-breakpoint
CREATE INDEX "risk_areas_enterprise_idx" ON "risk_areas" USING btree ("enterprise_id","kind","level");--> statement-breakpoint
CREATE INDEX "risk_areas_box_idx" ON "risk_areas" USING gist (box(point("minx", "miny"), point("maxx", "maxy")));