CREATE TABLE "basemap_features" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"geometry" jsonb NOT NULL,
	"minx" double precision NOT NULL,
	"miny" double precision NOT NULL,
	"maxx" double precision NOT NULL,
	"maxy" double precision NOT NULL
);
--> statement-breakpoint
ALTER TABLE "enterprises" ADD COLUMN "pipes_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "basemap_features_bbox_idx" ON "basemap_features" USING btree ("minx","miny");