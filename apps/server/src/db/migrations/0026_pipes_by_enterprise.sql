-- Each enterprise's pipes are a partition of their own ("pipes_of_<enterprise id>"). An import that
-- replaces a network then loads it into a table without indexes, indexes it once whole (two at a
-- time) and swaps it in for the old partition in one short transaction (modules/pipelines/
-- import.ts): keeping ten indexes row by row was two thirds of a million-pipe import. An
-- enterprise's partition is made with the enterprise and dropped with it.
ALTER TABLE "pipes" RENAME TO "pipes_unpartitioned";--> statement-breakpoint
CREATE TABLE "pipes" (LIKE "pipes_unpartitioned" INCLUDING DEFAULTS INCLUDING GENERATED) PARTITION BY LIST ("enterprise_id");--> statement-breakpoint
ALTER SEQUENCE "pipes_id_seq" OWNED BY "pipes"."id";--> statement-breakpoint
CREATE FUNCTION pipes_partition_add(enterprise integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF pipes FOR VALUES IN (%s)', 'pipes_of_' || enterprise, enterprise);
END $$;--> statement-breakpoint
SELECT pipes_partition_add(id) FROM enterprises;--> statement-breakpoint
SELECT pipes_partition_add(enterprise_id) FROM (SELECT DISTINCT enterprise_id FROM pipes_unpartitioned) kept;--> statement-breakpoint
INSERT INTO "pipes" ("id", "enterprise_id", "pipe_id", "network_type", "material", "diameter_mm", "pressure_class", "install_year", "depth_m", "owner", "geometry", "tile_line", "length_m", "minx", "miny", "maxx", "maxy", "created_at", "updated_at")
SELECT "id", "enterprise_id", "pipe_id", "network_type", "material", "diameter_mm", "pressure_class", "install_year", "depth_m", "owner", "geometry", "tile_line", "length_m", "minx", "miny", "maxx", "maxy", "created_at", "updated_at" FROM "pipes_unpartitioned";--> statement-breakpoint
DROP TABLE "pipes_unpartitioned";--> statement-breakpoint
ALTER TABLE "pipes" ADD CONSTRAINT "pipes_id_enterprise_id_pk" PRIMARY KEY("id","enterprise_id");--> statement-breakpoint
CREATE UNIQUE INDEX "pipes_enterprise_pipe_id_idx" ON "pipes" USING btree ("enterprise_id","pipe_id");--> statement-breakpoint
CREATE INDEX "pipes_box_idx" ON "pipes" USING gist (box(point("minx", "miny"), point("maxx", "maxy")));--> statement-breakpoint
CREATE INDEX "pipes_trunk_box_idx" ON "pipes" USING gist (box(point("minx", "miny"), point("maxx", "maxy"))) WHERE "scale_class" = 0;--> statement-breakpoint
CREATE INDEX "pipes_main_box_idx" ON "pipes" USING gist (box(point("minx", "miny"), point("maxx", "maxy"))) WHERE "scale_class" <= 1;--> statement-breakpoint
CREATE INDEX "pipes_enterprise_type_idx" ON "pipes" USING btree ("enterprise_id","network_type","material","pipe_id");--> statement-breakpoint
CREATE INDEX "pipes_enterprise_material_idx" ON "pipes" USING btree ("enterprise_id","material","pipe_id");--> statement-breakpoint
CREATE INDEX "pipes_enterprise_diameter_idx" ON "pipes" USING btree ("enterprise_id","diameter_mm");--> statement-breakpoint
CREATE INDEX "pipes_enterprise_year_idx" ON "pipes" USING btree ("enterprise_id","install_year");--> statement-breakpoint
CREATE INDEX "pipes_pipe_id_trgm_idx" ON "pipes" USING gin ("pipe_id" gin_trgm_ops);--> statement-breakpoint
CREATE TRIGGER pipes_count_insert AFTER INSERT ON pipes REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION pipe_counts_add();--> statement-breakpoint
CREATE TRIGGER pipes_count_delete AFTER DELETE ON pipes REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION pipe_counts_remove();--> statement-breakpoint
CREATE TRIGGER pipes_count_update AFTER UPDATE ON pipes REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION pipe_counts_change();--> statement-breakpoint
CREATE FUNCTION enterprise_pipes_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pipes_partition_add(NEW.id);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER enterprises_pipes_add AFTER INSERT ON enterprises FOR EACH ROW EXECUTE FUNCTION enterprise_pipes_add();--> statement-breakpoint
-- pipe_counts goes with the enterprise by its own foreign key.
CREATE OR REPLACE FUNCTION enterprise_pipes_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('DROP TABLE IF EXISTS %I', 'pipes_of_' || OLD.id);
  RETURN NULL;
END $$;--> statement-breakpoint
-- A tile reads one enterprise's partition: the enterprise is compared as it is, so the partition is
-- picked (inside it every pipe has that enterprise, so no index led by it looks cheaper than the
-- box's). Each pipe's risk is found by its key (a subquery per pipe): joined, the planner hashes
-- the whole risk table for the 5,000 pipes it takes every tile for (a z16 tile over a million
-- assessed pipes: 5 ms instead of 0.5). The plan is made once, for any enterprise (its partition
-- picked as the statement starts): a plan made per call for the one partition, as PostgreSQL
-- otherwise keeps doing for a partitioned table, cost a z16 tile 0.07 ms more in the database.
CREATE OR REPLACE FUNCTION pipe_tile_pipes(tile_enterprise integer, tile_minx float8, tile_miny float8, tile_maxx float8, tile_maxy float8, mains_only boolean)
RETURNS bytea LANGUAGE plpgsql STABLE SET enable_bitmapscan = off SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  IF mains_only THEN
    -- The literal condition is the partial index's own (pipes_main_box_idx).
    RETURN (
      SELECT string_agg(p.tile_head || p.tile_line || coalesce((SELECT int4send(octet_length(r.level)) || decode(replace(r.level, '\', '\\'), 'escape') FROM pipe_risks r WHERE r.pipe_row_id = p.id), '\xffffffff'::bytea), ''::bytea)
      FROM pipes p
      WHERE p.enterprise_id = tile_enterprise AND p.scale_class <= 1
        AND box(point(p.minx, p.miny), point(p.maxx, p.maxy)) && box(point(tile_minx, tile_miny), point(tile_maxx, tile_maxy)));
  END IF;
  RETURN (
    SELECT string_agg(p.tile_head || p.tile_line || coalesce((SELECT int4send(octet_length(r.level)) || decode(replace(r.level, '\', '\\'), 'escape') FROM pipe_risks r WHERE r.pipe_row_id = p.id), '\xffffffff'::bytea), ''::bytea)
    FROM pipes p
    WHERE p.enterprise_id = tile_enterprise
      AND box(point(p.minx, p.miny), point(p.maxx, p.maxy)) && box(point(tile_minx, tile_miny), point(tile_maxx, tile_maxy)));
END $$;--> statement-breakpoint
ANALYZE "pipes";
