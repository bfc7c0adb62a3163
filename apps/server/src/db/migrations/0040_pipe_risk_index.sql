DROP INDEX "pipe_risks_score_idx";--> statement-breakpoint
ALTER TABLE "pipe_risks" ADD COLUMN "risk_index" real DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "pipe_risks" ADD COLUMN "percentile" real DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Segments assessed before the index: R itself until the next assessment, and their rank by it within their level.
UPDATE "pipe_risks" p SET "risk_index" = p."score", "percentile" = r."percentile"
  FROM (SELECT "pipe_row_id", (100 * percent_rank() OVER (PARTITION BY "enterprise_id", "level" ORDER BY "score"))::real AS "percentile" FROM "pipe_risks") r
  WHERE r."pipe_row_id" = p."pipe_row_id";--> statement-breakpoint
CREATE INDEX "pipe_risks_score_idx" ON "pipe_risks" USING btree ("enterprise_id","score","risk_index","pipe_row_id");
