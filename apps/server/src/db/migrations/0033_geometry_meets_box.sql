-- Whether a stored GeoJSON geometry (WGS84 lon/lat) meets a box: the exact test behind an open
-- data request's bbox, after the box index has found the rows whose envelope meets it. A segment
-- meets the box when the Liang-Barsky clip leaves some of it; an area also when the box lies
-- inside it (its corner inside by the even-odd rule, holes out).
CREATE OR REPLACE FUNCTION segment_meets_box(ax float8, ay float8, bx float8, by_ float8, x0 float8, y0 float8, x1 float8, y1 float8)
RETURNS boolean LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
  t0 float8 := 0;
  t1 float8 := 1;
  p float8[] := ARRAY[ax - bx, bx - ax, ay - by_, by_ - ay];
  q float8[] := ARRAY[ax - x0, x1 - ax, ay - y0, y1 - ay];
  r float8;
BEGIN
  FOR k IN 1..4 LOOP
    IF p[k] = 0 THEN
      IF q[k] < 0 THEN RETURN false; END IF;
    ELSE
      r := q[k] / p[k];
      IF p[k] < 0 THEN
        IF r > t1 THEN RETURN false; END IF;
        IF r > t0 THEN t0 := r; END IF;
      ELSE
        IF r < t0 THEN RETURN false; END IF;
        IF r < t1 THEN t1 := r; END IF;
      END IF;
    END IF;
  END LOOP;
  RETURN true;
END $$;
--> statement-breakpoint
-- A path (an array of positions) meets the box: one of its segments, or its one position.
CREATE OR REPLACE FUNCTION path_meets_box(path jsonb, x0 float8, y0 float8, x1 float8, y1 float8)
RETURNS boolean LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
  n int := jsonb_array_length(path);
  ax float8; ay float8; bx float8; by_ float8;
BEGIN
  IF n = 0 THEN RETURN false; END IF;
  ax := (path->0->>0)::float8; ay := (path->0->>1)::float8;
  IF n = 1 THEN RETURN ax BETWEEN x0 AND x1 AND ay BETWEEN y0 AND y1; END IF;
  FOR i IN 1..n - 1 LOOP
    bx := (path->i->>0)::float8; by_ := (path->i->>1)::float8;
    IF segment_meets_box(ax, ay, bx, by_, x0, y0, x1, y1) THEN RETURN true; END IF;
    ax := bx; ay := by_;
  END LOOP;
  RETURN false;
END $$;
--> statement-breakpoint
-- A polygon (an array of rings) meets the box: a ring's edge does, or the box's corner is inside.
CREATE OR REPLACE FUNCTION polygon_meets_box(rings jsonb, x0 float8, y0 float8, x1 float8, y1 float8)
RETURNS boolean LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
  ring jsonb;
  n int;
  crossings int := 0;
  ax float8; ay float8; bx float8; by_ float8;
BEGIN
  FOR ring IN SELECT value FROM jsonb_array_elements(rings) LOOP
    IF path_meets_box(ring, x0, y0, x1, y1) THEN RETURN true; END IF;
    n := jsonb_array_length(ring);
    FOR i IN 0..n - 1 LOOP
      ax := (ring->i->>0)::float8; ay := (ring->i->>1)::float8;
      bx := (ring->((i + 1) % n)->>0)::float8; by_ := (ring->((i + 1) % n)->>1)::float8;
      IF (ay <= y0) <> (by_ <= y0) AND x0 < ax + (y0 - ay) * (bx - ax) / (by_ - ay) THEN crossings := crossings + 1; END IF;
    END LOOP;
  END LOOP;
  RETURN crossings % 2 = 1;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION geometry_meets_box(g jsonb, x0 float8, y0 float8, x1 float8, y1 float8)
RETURNS boolean LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
  kind text := g->>'type';
  part jsonb;
BEGIN
  IF kind = 'Point' THEN RETURN path_meets_box(jsonb_build_array(g->'coordinates'), x0, y0, x1, y1); END IF;
  IF kind = 'LineString' THEN RETURN path_meets_box(g->'coordinates', x0, y0, x1, y1); END IF;
  IF kind = 'Polygon' THEN RETURN polygon_meets_box(g->'coordinates', x0, y0, x1, y1); END IF;
  IF kind = 'GeometryCollection' THEN
    FOR part IN SELECT value FROM jsonb_array_elements(g->'geometries') LOOP
      IF geometry_meets_box(part, x0, y0, x1, y1) THEN RETURN true; END IF;
    END LOOP;
    RETURN false;
  END IF;
  FOR part IN SELECT value FROM jsonb_array_elements(g->'coordinates') LOOP
    IF kind = 'MultiPoint' AND path_meets_box(jsonb_build_array(part), x0, y0, x1, y1) THEN RETURN true; END IF;
    IF kind = 'MultiLineString' AND path_meets_box(part, x0, y0, x1, y1) THEN RETURN true; END IF;
    IF kind = 'MultiPolygon' AND polygon_meets_box(part, x0, y0, x1, y1) THEN RETURN true; END IF;
  END LOOP;
  RETURN false;
END $$;
