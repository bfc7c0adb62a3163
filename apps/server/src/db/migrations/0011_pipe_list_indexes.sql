CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "pipe_counts" (
	"enterprise_id" integer NOT NULL,
	"network_type" text NOT NULL,
	"material" text NOT NULL,
	"pipes" bigint NOT NULL,
	"length_m" double precision NOT NULL,
	CONSTRAINT "pipe_counts_enterprise_id_network_type_material_pk" PRIMARY KEY("enterprise_id","network_type","material")
);
--> statement-breakpoint
DROP INDEX "pipes_enterprise_type_idx";--> statement-breakpoint
ALTER TABLE "pipe_counts" ADD CONSTRAINT "pipe_counts_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pipes_enterprise_material_idx" ON "pipes" USING btree ("enterprise_id","material","pipe_id");--> statement-breakpoint
CREATE INDEX "pipes_enterprise_diameter_idx" ON "pipes" USING btree ("enterprise_id","diameter_mm");--> statement-breakpoint
CREATE INDEX "pipes_enterprise_year_idx" ON "pipes" USING btree ("enterprise_id","install_year");--> statement-breakpoint
CREATE INDEX "pipes_pipe_id_trgm_idx" ON "pipes" USING gin ("pipe_id" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "pipes_enterprise_type_idx" ON "pipes" USING btree ("enterprise_id","network_type","material","pipe_id");--> statement-breakpoint
-- pipe_counts follows every statement that changes pipes: the rows it added are counted in, the
-- rows it removed counted out, groups in a fixed order so concurrent writers lock them alike.
CREATE FUNCTION pipe_counts_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO pipe_counts (enterprise_id, network_type, material, pipes, length_m)
  SELECT enterprise_id, network_type, coalesce(material, ''), count(*), sum(length_m) FROM added
  GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (enterprise_id, network_type, material)
  DO UPDATE SET pipes = pipe_counts.pipes + excluded.pipes, length_m = pipe_counts.length_m + excluded.length_m;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION pipe_counts_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH gone AS (
    SELECT enterprise_id, network_type, coalesce(material, '') AS material, count(*) AS pipes, sum(length_m) AS length_m FROM removed
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  )
  UPDATE pipe_counts c SET pipes = c.pipes - gone.pipes, length_m = c.length_m - gone.length_m
  FROM gone WHERE c.enterprise_id = gone.enterprise_id AND c.network_type = gone.network_type AND c.material = gone.material;
  DELETE FROM pipe_counts c WHERE c.pipes <= 0 AND c.enterprise_id IN (SELECT DISTINCT enterprise_id FROM removed);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION pipe_counts_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH delta AS (
    SELECT enterprise_id, network_type, coalesce(material, '') AS material, count(*) AS pipes, sum(length_m) AS length_m FROM added GROUP BY 1, 2, 3
    UNION ALL
    SELECT enterprise_id, network_type, coalesce(material, ''), -count(*), -sum(length_m) FROM removed GROUP BY 1, 2, 3
  ), summed AS (
    SELECT enterprise_id, network_type, material, sum(pipes) AS pipes, sum(length_m) AS length_m FROM delta
    GROUP BY 1, 2, 3 HAVING sum(pipes) <> 0 OR sum(length_m) <> 0 ORDER BY 1, 2, 3
  )
  INSERT INTO pipe_counts (enterprise_id, network_type, material, pipes, length_m)
  SELECT * FROM summed
  ON CONFLICT (enterprise_id, network_type, material)
  DO UPDATE SET pipes = pipe_counts.pipes + excluded.pipes, length_m = pipe_counts.length_m + excluded.length_m;
  DELETE FROM pipe_counts c WHERE c.pipes <= 0 AND c.enterprise_id IN (SELECT DISTINCT enterprise_id FROM removed);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER pipes_count_insert AFTER INSERT ON pipes REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION pipe_counts_add();--> statement-breakpoint
CREATE TRIGGER pipes_count_delete AFTER DELETE ON pipes REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION pipe_counts_remove();--> statement-breakpoint
CREATE TRIGGER pipes_count_update AFTER UPDATE ON pipes REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION pipe_counts_change();--> statement-breakpoint
INSERT INTO pipe_counts (enterprise_id, network_type, material, pipes, length_m)
SELECT enterprise_id, network_type, coalesce(material, ''), count(*), sum(length_m) FROM pipes GROUP BY 1, 2, 3;
