CREATE TABLE "pipes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"enterprise_id" integer NOT NULL,
	"pipe_id" text NOT NULL,
	"network_type" text NOT NULL,
	"material" text,
	"diameter_mm" integer,
	"pressure_class" text,
	"install_year" integer,
	"depth_m" double precision,
	"owner" text,
	"geometry" jsonb NOT NULL,
	"length_m" double precision NOT NULL,
	"minx" double precision NOT NULL,
	"miny" double precision NOT NULL,
	"maxx" double precision NOT NULL,
	"maxy" double precision NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"id" serial PRIMARY KEY NOT NULL,
	"enterprise_id" integer NOT NULL,
	"name" text NOT NULL,
	"code" text NOT NULL,
	"city" text NOT NULL,
	"district" text,
	"area" jsonb NOT NULL,
	"minx" double precision NOT NULL,
	"miny" double precision NOT NULL,
	"maxx" double precision NOT NULL,
	"maxy" double precision NOT NULL,
	"network_types" jsonb NOT NULL,
	"start_date" date,
	"end_date" date,
	"status" text DEFAULT 'planned' NOT NULL,
	"description" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pipes" ADD CONSTRAINT "pipes_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "pipes_enterprise_pipe_id_idx" ON "pipes" USING btree ("enterprise_id","pipe_id");--> statement-breakpoint
CREATE INDEX "pipes_enterprise_bbox_idx" ON "pipes" USING btree ("enterprise_id","minx","miny");--> statement-breakpoint
CREATE INDEX "pipes_enterprise_type_idx" ON "pipes" USING btree ("enterprise_id","network_type");--> statement-breakpoint
CREATE UNIQUE INDEX "projects_enterprise_code_idx" ON "projects" USING btree ("enterprise_id","code");--> statement-breakpoint
CREATE INDEX "projects_enterprise_idx" ON "projects" USING btree ("enterprise_id");