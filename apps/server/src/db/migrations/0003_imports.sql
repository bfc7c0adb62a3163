CREATE TABLE "import_jobs" (
	"id" serial PRIMARY KEY NOT NULL,
	"enterprise_id" integer NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"file_name" text NOT NULL,
	"file_size" bigint NOT NULL,
	"work_dir" text NOT NULL,
	"format" text NOT NULL,
	"detected_srid" integer,
	"detected_crs" text,
	"crs_definition" text,
	"fields" jsonb NOT NULL,
	"geometry_types" jsonb NOT NULL,
	"options" jsonb,
	"progress" double precision DEFAULT 0 NOT NULL,
	"rows_read" integer DEFAULT 0 NOT NULL,
	"rows_written" integer DEFAULT 0 NOT NULL,
	"problem_count" integer DEFAULT 0 NOT NULL,
	"problems" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"result" jsonb,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"heartbeat_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
-- Staging only: nothing in it outlives a job, so it skips the write-ahead log.
CREATE UNLOGGED TABLE "pipe_import_rows" (
	"job_id" integer NOT NULL,
	"row" integer NOT NULL,
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
	"maxy" double precision NOT NULL
);
--> statement-breakpoint
ALTER TABLE "import_jobs" ADD CONSTRAINT "import_jobs_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_jobs" ADD CONSTRAINT "import_jobs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pipe_import_rows" ADD CONSTRAINT "pipe_import_rows_job_id_import_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."import_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "import_jobs_enterprise_idx" ON "import_jobs" USING btree ("enterprise_id","created_at");--> statement-breakpoint
CREATE INDEX "pipe_import_rows_job_pipe_idx" ON "pipe_import_rows" USING btree ("job_id","pipe_id");