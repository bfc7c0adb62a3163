DROP INDEX "pipes_enterprise_bbox_idx";--> statement-breakpoint
CREATE INDEX "pipes_box_idx" ON "pipes" USING gist (box(point("minx", "miny"), point("maxx", "maxy")));