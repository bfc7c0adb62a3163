CREATE TABLE "pipe_risk_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"enterprise_id" integer NOT NULL,
	"pipe_row_id" bigint NOT NULL,
	"changed_on" date NOT NULL,
	"from_level" text NOT NULL,
	"to_level" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pipe_risk_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"enterprise_id" integer NOT NULL,
	"status" text NOT NULL,
	"reason" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"segments" integer,
	"levels" jsonb,
	"by_network" jsonb,
	"masked" integer,
	"changed" integer,
	"weights" jsonb NOT NULL,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "pipe_risk_settings" (
	"enterprise_id" integer PRIMARY KEY NOT NULL,
	"weights" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pipe_risks" (
	"pipe_row_id" bigint PRIMARY KEY NOT NULL,
	"enterprise_id" integer NOT NULL,
	"age_material" smallint NOT NULL,
	"diameter" smallint NOT NULL,
	"leaks" smallint NOT NULL,
	"settlement" smallint NOT NULL,
	"construction" smallint NOT NULL,
	"risk_areas" smallint NOT NULL,
	"weather" smallint NOT NULL,
	"medium" smallint NOT NULL,
	"size" smallint NOT NULL,
	"likelihood" smallint NOT NULL,
	"consequence" smallint NOT NULL,
	"score" smallint NOT NULL,
	"level" text NOT NULL,
	"masked" boolean NOT NULL,
	"assessed_on" date NOT NULL,
	"since" date NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pipe_risk_runs" ADD CONSTRAINT "pipe_risk_runs_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pipe_risk_settings" ADD CONSTRAINT "pipe_risk_settings_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pipe_risk_changes_pipe_idx" ON "pipe_risk_changes" USING btree ("pipe_row_id","changed_on");--> statement-breakpoint
CREATE INDEX "pipe_risk_runs_enterprise_idx" ON "pipe_risk_runs" USING btree ("enterprise_id","started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "pipe_risk_runs_running_idx" ON "pipe_risk_runs" USING btree ("enterprise_id") WHERE status = 'running';--> statement-breakpoint
CREATE INDEX "pipe_risks_score_idx" ON "pipe_risks" USING btree ("enterprise_id","score","pipe_row_id");