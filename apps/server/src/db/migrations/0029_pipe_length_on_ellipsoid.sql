-- A pipe's length on the WGS 84 ellipsoid (geo/geometry.ts distanceM: each step on the plane
-- tangent at its middle latitude with the ellipsoid's radii there), as new pipes are written; it
-- was the great-circle length on a sphere. The count triggers carry the change into pipe_counts;
-- projects measure their pipe length again.
UPDATE "pipes" p SET "length_m" = round(l.total::numeric, 2)::float8
FROM (
  SELECT q.id, q.enterprise_id, sum(sqrt(power(((s.b->>0)::float8 - (s.a->>0)::float8) * k.mx, 2) + power(((s.b->>1)::float8 - (s.a->>1)::float8) * k.my, 2))) AS total
  FROM "pipes" q
  CROSS JOIN LATERAL jsonb_array_elements(CASE q.geometry->>'type' WHEN 'LineString' THEN jsonb_build_array(q.geometry->'coordinates') ELSE q.geometry->'coordinates' END) AS line(points)
  CROSS JOIN LATERAL generate_series(1, jsonb_array_length(line.points) - 1) AS i
  CROSS JOIN LATERAL (SELECT line.points->(i - 1) AS a, line.points->i AS b) s
  CROSS JOIN LATERAL (SELECT radians(((s.a->>1)::float8 + (s.b->>1)::float8) / 2) AS phi) f
  CROSS JOIN LATERAL (SELECT 6378137 / sqrt(1 - 0.00669437999014 * sin(f.phi) ^ 2) * cos(f.phi) * pi() / 180 AS mx,
                             6378137 * (1 - 0.00669437999014) / (1 - 0.00669437999014 * sin(f.phi) ^ 2) ^ 1.5 * pi() / 180 AS my) k
  GROUP BY q.id, q.enterprise_id
) l
WHERE p.id = l.id AND p.enterprise_id = l.enterprise_id;--> statement-breakpoint
UPDATE "projects" SET "pipe_length_m" = NULL;
