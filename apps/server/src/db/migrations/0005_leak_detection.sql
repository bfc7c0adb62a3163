CREATE TABLE "acquisitions" (
	"id" serial PRIMARY KEY NOT NULL,
	"enterprise_id" integer NOT NULL,
	"satellite" text NOT NULL,
	"product_id" text NOT NULL,
	"acquired_at" timestamp with time zone NOT NULL,
	"orbit_direction" text NOT NULL,
	"mode" text NOT NULL,
	"polarisation" text NOT NULL,
	"footprint" jsonb NOT NULL,
	"minx" double precision NOT NULL,
	"miny" double precision NOT NULL,
	"maxx" double precision NOT NULL,
	"maxy" double precision NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deliveries" (
	"id" serial PRIMARY KEY NOT NULL,
	"enterprise_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"acquisition_id" integer,
	"name" text NOT NULL,
	"file_name" text,
	"poi_count" integer NOT NULL,
	"delivered_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer
);
--> statement-breakpoint
CREATE TABLE "poi_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"poi_id" bigint NOT NULL,
	"user_id" integer,
	"action" text NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"details" jsonb,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pois" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"enterprise_id" integer NOT NULL,
	"delivery_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"poi_no" text NOT NULL,
	"geometry" jsonb NOT NULL,
	"center_lon" double precision NOT NULL,
	"center_lat" double precision NOT NULL,
	"radius_m" double precision,
	"minx" double precision NOT NULL,
	"miny" double precision NOT NULL,
	"maxx" double precision NOT NULL,
	"maxy" double precision NOT NULL,
	"priority" text DEFAULT 'medium' NOT NULL,
	"estimated_leak_m3h" double precision,
	"pipes" jsonb NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"assignee_id" integer,
	"due_date" date,
	"finding" jsonb,
	"investigated_at" timestamp with time zone,
	"found_at" timestamp with time zone,
	"repaired_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "acquisitions" ADD CONSTRAINT "acquisitions_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_acquisition_id_acquisitions_id_fk" FOREIGN KEY ("acquisition_id") REFERENCES "public"."acquisitions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "poi_events" ADD CONSTRAINT "poi_events_poi_id_pois_id_fk" FOREIGN KEY ("poi_id") REFERENCES "public"."pois"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "poi_events" ADD CONSTRAINT "poi_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pois" ADD CONSTRAINT "pois_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pois" ADD CONSTRAINT "pois_delivery_id_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pois" ADD CONSTRAINT "pois_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pois" ADD CONSTRAINT "pois_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "acquisitions_enterprise_product_idx" ON "acquisitions" USING btree ("enterprise_id","product_id");--> statement-breakpoint
CREATE INDEX "acquisitions_enterprise_time_idx" ON "acquisitions" USING btree ("enterprise_id","acquired_at");--> statement-breakpoint
CREATE INDEX "deliveries_project_idx" ON "deliveries" USING btree ("enterprise_id","project_id");--> statement-breakpoint
CREATE INDEX "poi_events_poi_idx" ON "poi_events" USING btree ("poi_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "pois_delivery_no_idx" ON "pois" USING btree ("delivery_id","poi_no");--> statement-breakpoint
CREATE INDEX "pois_project_status_idx" ON "pois" USING btree ("enterprise_id","project_id","status");--> statement-breakpoint
CREATE INDEX "pois_box_idx" ON "pois" USING gist (box(point("minx", "miny"), point("maxx", "maxy")));