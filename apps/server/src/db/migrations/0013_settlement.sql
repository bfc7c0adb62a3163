CREATE TABLE "settlement_bands" (
	"enterprise_id" integer PRIMARY KEY NOT NULL,
	"breaks" jsonb NOT NULL,
	"colors" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settlement_cells" (
	"dataset_id" integer NOT NULL,
	"size_m" smallint NOT NULL,
	"cx" integer NOT NULL,
	"cy" integer NOT NULL,
	"lon" double precision NOT NULL,
	"lat" double precision NOT NULL,
	"count" integer NOT NULL,
	"mean_velocity" real NOT NULL,
	CONSTRAINT "settlement_cells_dataset_id_size_m_cx_cy_pk" PRIMARY KEY("dataset_id","size_m","cx","cy")
);
--> statement-breakpoint
CREATE TABLE "settlement_datasets" (
	"id" serial PRIMARY KEY NOT NULL,
	"enterprise_id" integer NOT NULL,
	"project_id" integer,
	"status" text DEFAULT 'importing' NOT NULL,
	"name" text NOT NULL,
	"provider" text,
	"sensor" text,
	"track" text,
	"orbit" text,
	"direction" text NOT NULL,
	"reference_point" text,
	"dates" jsonb NOT NULL,
	"point_count" integer DEFAULT 0 NOT NULL,
	"velocity_min" double precision DEFAULT 0 NOT NULL,
	"velocity_max" double precision DEFAULT 0 NOT NULL,
	"velocity_mean" double precision DEFAULT 0 NOT NULL,
	"velocity_std" double precision DEFAULT 0 NOT NULL,
	"minx" double precision NOT NULL,
	"miny" double precision NOT NULL,
	"maxx" double precision NOT NULL,
	"maxy" double precision NOT NULL,
	"file_name" text NOT NULL,
	"import_job_id" integer,
	"analysis_status" text DEFAULT 'none' NOT NULL,
	"analysed_at" timestamp with time zone,
	"analysis_run" integer DEFAULT 0 NOT NULL,
	"analysis_summary" jsonb,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settlement_points" (
	"id" bigserial NOT NULL,
	"dataset_id" integer NOT NULL,
	"point_id" text NOT NULL,
	"lon" double precision NOT NULL,
	"lat" double precision NOT NULL,
	"velocity" real NOT NULL,
	"velocity_std" real,
	"coherence" real,
	"height" real,
	"acceleration" real,
	"cumulative" real NOT NULL,
	"displacement_hundredth_mm" integer[] NOT NULL,
	CONSTRAINT "settlement_points_dataset_id_id_pk" PRIMARY KEY("dataset_id","id")
) PARTITION BY LIST ("dataset_id"); -- one partition per dataset, made by its import (modules/settlement/points.ts)
--> statement-breakpoint
CREATE TABLE "settlement_results" (
	"dataset_id" integer NOT NULL,
	"run" integer NOT NULL,
	"pipe_row_id" bigint NOT NULL,
	"point_count" integer NOT NULL,
	"mean_velocity" real NOT NULL,
	"min_velocity" real NOT NULL,
	"max_cumulative" real NOT NULL,
	"differential" real,
	"level" smallint NOT NULL,
	"crossed" jsonb NOT NULL,
	"profile" jsonb NOT NULL,
	"points" jsonb NOT NULL,
	CONSTRAINT "settlement_results_dataset_id_run_pipe_row_id_pk" PRIMARY KEY("dataset_id","run","pipe_row_id")
);
--> statement-breakpoint
CREATE TABLE "settlement_thresholds" (
	"enterprise_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"velocity_alarm" double precision NOT NULL,
	"cumulative_alarm" double precision NOT NULL,
	"differential_alarm" double precision NOT NULL,
	"warn_ratio" double precision NOT NULL,
	"buffer_m" double precision NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "settlement_thresholds_enterprise_id_project_id_pk" PRIMARY KEY("enterprise_id","project_id")
);
--> statement-breakpoint
ALTER TABLE "settlement_bands" ADD CONSTRAINT "settlement_bands_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_cells" ADD CONSTRAINT "settlement_cells_dataset_id_settlement_datasets_id_fk" FOREIGN KEY ("dataset_id") REFERENCES "public"."settlement_datasets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_datasets" ADD CONSTRAINT "settlement_datasets_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_datasets" ADD CONSTRAINT "settlement_datasets_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_datasets" ADD CONSTRAINT "settlement_datasets_import_job_id_import_jobs_id_fk" FOREIGN KEY ("import_job_id") REFERENCES "public"."import_jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_datasets" ADD CONSTRAINT "settlement_datasets_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_results" ADD CONSTRAINT "settlement_results_dataset_id_settlement_datasets_id_fk" FOREIGN KEY ("dataset_id") REFERENCES "public"."settlement_datasets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_thresholds" ADD CONSTRAINT "settlement_thresholds_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "settlement_datasets_enterprise_idx" ON "settlement_datasets" USING btree ("enterprise_id");--> statement-breakpoint
CREATE INDEX "settlement_points_position_idx" ON "settlement_points" USING gist (point("lon", "lat"));--> statement-breakpoint
CREATE INDEX "settlement_results_rank_idx" ON "settlement_results" USING btree ("dataset_id","run","level","min_velocity");