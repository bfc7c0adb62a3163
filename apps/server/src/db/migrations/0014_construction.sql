CREATE TABLE "construction_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"user_id" integer,
	"action" text NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"details" jsonb,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "construction_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"enterprise_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"watch_log_id" integer,
	"kind" text NOT NULL,
	"file_name" text NOT NULL,
	"mimetype" text NOT NULL,
	"size" integer NOT NULL,
	"path" text NOT NULL,
	"uploaded_by" integer,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "construction_settings" (
	"enterprise_id" integer PRIMARY KEY NOT NULL,
	"settings" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "construction_sites" (
	"id" serial PRIMARY KEY NOT NULL,
	"enterprise_id" integer NOT NULL,
	"project_id" integer,
	"site_no" text NOT NULL,
	"name" text NOT NULL,
	"build_type" text NOT NULL,
	"geometry" jsonb NOT NULL,
	"center_lon" double precision NOT NULL,
	"center_lat" double precision NOT NULL,
	"radius_m" double precision,
	"minx" double precision NOT NULL,
	"miny" double precision NOT NULL,
	"maxx" double precision NOT NULL,
	"maxy" double precision NOT NULL,
	"address" text,
	"district" text,
	"planned_start" date,
	"planned_end" date,
	"actual_start" date,
	"actual_end" date,
	"construction_unit" text,
	"construction_contact" text,
	"construction_phone" text,
	"supervising_unit" text,
	"supervising_contact" text,
	"supervising_phone" text,
	"source" text NOT NULL,
	"detected_at" date,
	"change_type" text,
	"build_state" text NOT NULL,
	"status" text DEFAULT 'review' NOT NULL,
	"briefed_by" text,
	"briefed_at" timestamp with time zone,
	"guard" text,
	"measure" jsonb,
	"nearest_m" double precision,
	"criticality" text DEFAULT 'none' NOT NULL,
	"inside_gas_protection" boolean DEFAULT false NOT NULL,
	"corridor_networks" text[] DEFAULT '{}' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "construction_watch_logs" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"person" text NOT NULL,
	"remark" text NOT NULL,
	"created_by" integer
);
--> statement-breakpoint
ALTER TABLE "construction_events" ADD CONSTRAINT "construction_events_site_id_construction_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."construction_sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "construction_events" ADD CONSTRAINT "construction_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "construction_files" ADD CONSTRAINT "construction_files_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "construction_files" ADD CONSTRAINT "construction_files_site_id_construction_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."construction_sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "construction_files" ADD CONSTRAINT "construction_files_watch_log_id_construction_watch_logs_id_fk" FOREIGN KEY ("watch_log_id") REFERENCES "public"."construction_watch_logs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "construction_files" ADD CONSTRAINT "construction_files_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "construction_settings" ADD CONSTRAINT "construction_settings_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "construction_sites" ADD CONSTRAINT "construction_sites_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "construction_sites" ADD CONSTRAINT "construction_sites_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "construction_sites" ADD CONSTRAINT "construction_sites_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "construction_watch_logs" ADD CONSTRAINT "construction_watch_logs_site_id_construction_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."construction_sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "construction_watch_logs" ADD CONSTRAINT "construction_watch_logs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "construction_events_site_idx" ON "construction_events" USING btree ("site_id","at");--> statement-breakpoint
CREATE INDEX "construction_files_site_idx" ON "construction_files" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "construction_files_log_idx" ON "construction_files" USING btree ("watch_log_id");--> statement-breakpoint
CREATE UNIQUE INDEX "construction_sites_no_idx" ON "construction_sites" USING btree ("enterprise_id","site_no");--> statement-breakpoint
CREATE INDEX "construction_sites_status_idx" ON "construction_sites" USING btree ("enterprise_id","status","criticality");--> statement-breakpoint
CREATE INDEX "construction_sites_box_idx" ON "construction_sites" USING gist (box(point("minx", "miny"), point("maxx", "maxy")));--> statement-breakpoint
CREATE INDEX "construction_watch_logs_site_idx" ON "construction_watch_logs" USING btree ("site_id","at");