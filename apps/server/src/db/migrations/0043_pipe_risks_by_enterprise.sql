-- Each enterprise's assessment is a partition of its own ("pipe_risks_of_<enterprise id>"). An
-- assessment loads the new one into a table without indexes, indexes it whole and swaps it in for
-- the old (modules/pipeRisk/assess.ts): deleting the enterprise's rows and inserting them again
-- through two indexes was half of a million-segment assessment, and left a million dead rows a run
-- (PGlite, which has no autovacuum, kept them all). Made with the enterprise, dropped with it.
DELETE FROM "pipe_risks" WHERE "enterprise_id" NOT IN (SELECT "id" FROM "enterprises");--> statement-breakpoint
ALTER TABLE "pipe_risks" RENAME TO "pipe_risks_unpartitioned";--> statement-breakpoint
ALTER TABLE "pipe_risks_unpartitioned" RENAME CONSTRAINT "pipe_risks_pkey" TO "pipe_risks_unpartitioned_pkey";--> statement-breakpoint
ALTER INDEX "pipe_risks_score_idx" RENAME TO "pipe_risks_unpartitioned_score_idx";--> statement-breakpoint
CREATE TABLE "pipe_risks" (LIKE "pipe_risks_unpartitioned" INCLUDING DEFAULTS) PARTITION BY LIST ("enterprise_id");--> statement-breakpoint
CREATE FUNCTION pipe_risks_partition_add(enterprise integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF pipe_risks FOR VALUES IN (%s)', 'pipe_risks_of_' || enterprise, enterprise);
END $$;--> statement-breakpoint
SELECT pipe_risks_partition_add(id) FROM enterprises;--> statement-breakpoint
INSERT INTO "pipe_risks" SELECT * FROM "pipe_risks_unpartitioned";--> statement-breakpoint
DROP TABLE "pipe_risks_unpartitioned";--> statement-breakpoint
ALTER TABLE "pipe_risks" ADD CONSTRAINT "pipe_risks_pipe_row_id_enterprise_id_pk" PRIMARY KEY("pipe_row_id","enterprise_id");--> statement-breakpoint
CREATE INDEX "pipe_risks_score_idx" ON "pipe_risks" USING btree ("enterprise_id","score","risk_index","pipe_row_id");--> statement-breakpoint
CREATE OR REPLACE FUNCTION enterprise_pipes_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pipes_partition_add(NEW.id);
  PERFORM pipe_risks_partition_add(NEW.id);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION enterprise_pipes_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('DROP TABLE IF EXISTS %I', 'pipes_of_' || OLD.id);
  EXECUTE format('DROP TABLE IF EXISTS %I', 'pipe_risks_of_' || OLD.id);
  RETURN NULL;
END $$;--> statement-breakpoint
-- A pipe's risk is read from its enterprise's partition (the tile's enterprise picks it as the
-- statement starts), not looked for in every enterprise's.
CREATE OR REPLACE FUNCTION pipe_tile_pipes(tile_enterprise integer, tile_minx float8, tile_miny float8, tile_maxx float8, tile_maxy float8, mains_only boolean)
RETURNS bytea LANGUAGE plpgsql STABLE SET enable_bitmapscan = off SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  IF mains_only THEN
    -- The literal condition is the partial index's own (pipes_main_box_idx).
    RETURN (
      SELECT string_agg(p.tile_head || p.tile_line || coalesce((SELECT int4send(octet_length(r.level)) || decode(replace(r.level, '\', '\\'), 'escape') FROM pipe_risks r WHERE r.enterprise_id = tile_enterprise AND r.pipe_row_id = p.id), '\xffffffff'::bytea), ''::bytea)
      FROM pipes p
      WHERE p.enterprise_id = tile_enterprise AND p.scale_class <= 1
        AND box(point(p.minx, p.miny), point(p.maxx, p.maxy)) && box(point(tile_minx, tile_miny), point(tile_maxx, tile_maxy)));
  END IF;
  RETURN (
    SELECT string_agg(p.tile_head || p.tile_line || coalesce((SELECT int4send(octet_length(r.level)) || decode(replace(r.level, '\', '\\'), 'escape') FROM pipe_risks r WHERE r.enterprise_id = tile_enterprise AND r.pipe_row_id = p.id), '\xffffffff'::bytea), ''::bytea)
    FROM pipes p
    WHERE p.enterprise_id = tile_enterprise
      AND box(point(p.minx, p.miny), point(p.maxx, p.maxy)) && box(point(tile_minx, tile_miny), point(tile_maxx, tile_maxy)));
END $$;
