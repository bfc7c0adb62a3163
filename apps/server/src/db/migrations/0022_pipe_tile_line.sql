-- Each pipe's line as the tiles read it (geo/tileLine.ts): Web Mercator on a 2^32 grid, big-endian,
-- per part its point count then its points. Pipes written before get theirs from this function,
-- which makes the same bytes from the stored GeoJSON.
CREATE FUNCTION pipe_tile_line(g jsonb) RETURNS bytea LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(string_agg(part, ''::bytea ORDER BY n), ''::bytea) FROM (
    SELECT l.n, int4send(jsonb_array_length(l.line)::int4) || string_agg(
        substring(int8send(least(4294967295, greatest(0, floor(((c.p->>0)::float8 + 180) / 360 * 4294967296)))::int8) FROM 5 FOR 4) ||
        substring(int8send(least(4294967295, greatest(0, floor((0.5 - ln(tan(pi() / 4 + radians(least(85.0511287798, greatest(-85.0511287798, (c.p->>1)::float8))) / 2)) / (2 * pi())) * 4294967296)))::int8) FROM 5 FOR 4),
        ''::bytea ORDER BY c.i) AS part
    FROM jsonb_array_elements(CASE WHEN g->>'type' = 'LineString' THEN jsonb_build_array(g->'coordinates') ELSE g->'coordinates' END) WITH ORDINALITY AS l(line, n),
         jsonb_array_elements(l.line) WITH ORDINALITY AS c(p, i)
    GROUP BY l.n, l.line
  ) parts
$$;--> statement-breakpoint
ALTER TABLE "pipe_import_rows" ADD COLUMN "tile_line" "bytea";--> statement-breakpoint
UPDATE "pipe_import_rows" SET "tile_line" = pipe_tile_line("geometry");--> statement-breakpoint
ALTER TABLE "pipe_import_rows" ALTER COLUMN "tile_line" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "pipes" ADD COLUMN "tile_line" "bytea";--> statement-breakpoint
UPDATE "pipes" SET "tile_line" = pipe_tile_line("geometry");--> statement-breakpoint
ALTER TABLE "pipes" ALTER COLUMN "tile_line" SET NOT NULL;--> statement-breakpoint
DROP FUNCTION pipe_tile_line(jsonb);
