CREATE TABLE "sensitive_sites" (
	"id" serial PRIMARY KEY NOT NULL,
	"enterprise_id" integer NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"lon" double precision NOT NULL,
	"lat" double precision NOT NULL,
	"minx" double precision NOT NULL,
	"miny" double precision NOT NULL,
	"maxx" double precision NOT NULL,
	"maxy" double precision NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pipe_risks" ADD COLUMN "sensitive" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "sensitive_sites" ADD CONSTRAINT "sensitive_sites_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sensitive_sites_box_idx" ON "sensitive_sites" USING gist (box(point("minx", "miny"), point("maxx", "maxy")));--> statement-breakpoint
CREATE INDEX "sensitive_sites_enterprise_idx" ON "sensitive_sites" USING btree ("enterprise_id");