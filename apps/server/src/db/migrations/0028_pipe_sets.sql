CREATE TABLE "site_pipes" (
	"site_id" integer NOT NULL,
	"enterprise_id" integer NOT NULL,
	"pipe_row_id" bigint NOT NULL,
	"distance_m" double precision NOT NULL,
	CONSTRAINT "site_pipes_site_id_pipe_row_id_pk" PRIMARY KEY("site_id","pipe_row_id")
);
--> statement-breakpoint
CREATE TABLE "area_pipes" (
	"area_id" integer NOT NULL,
	"enterprise_id" integer NOT NULL,
	"pipe_row_id" bigint NOT NULL,
	"distance_m" double precision NOT NULL,
	CONSTRAINT "area_pipes_area_id_pipe_row_id_pk" PRIMARY KEY("area_id","pipe_row_id")
);
--> statement-breakpoint
ALTER TABLE "site_pipes" ADD CONSTRAINT "site_pipes_site_id_construction_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."construction_sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "area_pipes" ADD CONSTRAINT "area_pipes_area_id_risk_areas_id_fk" FOREIGN KEY ("area_id") REFERENCES "public"."risk_areas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "site_pipes_pipe_idx" ON "site_pipes" USING btree ("enterprise_id","pipe_row_id");--> statement-breakpoint
CREATE INDEX "site_pipes_distance_idx" ON "site_pipes" USING btree ("site_id","distance_m","pipe_row_id");--> statement-breakpoint
CREATE INDEX "area_pipes_pipe_idx" ON "area_pipes" USING btree ("enterprise_id","pipe_row_id");--> statement-breakpoint
CREATE INDEX "area_pipes_distance_idx" ON "area_pipes" USING btree ("area_id","distance_m","pipe_row_id");