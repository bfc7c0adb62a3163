-- The single pipes of a detail tile (mains only from z11, every pipe from z13), packed as the tiles
-- read them (modules/tiles/service.ts): each pipe's head, its line and its risk level. Written here
-- so it can run without bitmap scans: core PostgreSQL has no statistics for a box overlap, so the
-- planner takes every tile for 5,000 pipes and builds a bitmap even for the 60 pipes of a z16 tile,
-- where a plain walk of the box index is a third faster (over 1,000,000 pipes: 0.33 -> 0.23 ms).
-- PL/pgSQL keeps each statement's plan for the connection. "+ 0": see trunkWindow in the service.
CREATE FUNCTION pipe_tile_pipes(tile_enterprise integer, tile_minx float8, tile_miny float8, tile_maxx float8, tile_maxy float8, mains_only boolean)
RETURNS bytea LANGUAGE plpgsql STABLE SET enable_bitmapscan = off AS $$
BEGIN
  IF mains_only THEN
    -- The literal condition is the partial index's own (pipes_main_box_idx).
    RETURN (
      SELECT string_agg(p.tile_head || p.tile_line || coalesce(int4send(octet_length(r.level)) || decode(replace(r.level, '\', '\\'), 'escape'), '\xffffffff'::bytea), ''::bytea)
      FROM pipes p LEFT JOIN pipe_risks r ON r.pipe_row_id = p.id
      WHERE p.enterprise_id + 0 = tile_enterprise AND p.scale_class <= 1
        AND box(point(p.minx, p.miny), point(p.maxx, p.maxy)) && box(point(tile_minx, tile_miny), point(tile_maxx, tile_maxy)));
  END IF;
  RETURN (
    SELECT string_agg(p.tile_head || p.tile_line || coalesce(int4send(octet_length(r.level)) || decode(replace(r.level, '\', '\\'), 'escape'), '\xffffffff'::bytea), ''::bytea)
    FROM pipes p LEFT JOIN pipe_risks r ON r.pipe_row_id = p.id
    WHERE p.enterprise_id + 0 = tile_enterprise
      AND box(point(p.minx, p.miny), point(p.maxx, p.maxy)) && box(point(tile_minx, tile_miny), point(tile_maxx, tile_maxy)));
END $$;
