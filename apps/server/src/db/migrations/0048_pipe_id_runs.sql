CREATE TABLE "pipe_id_runs" (
	"enterprise_id" integer NOT NULL,
	"first_pipe_id" text NOT NULL,
	"chars" text[] NOT NULL,
	CONSTRAINT "pipe_id_runs_enterprise_id_first_pipe_id_pk" PRIMARY KEY("enterprise_id","first_pipe_id")
);
--> statement-breakpoint
ALTER TABLE "pipe_id_runs" ADD CONSTRAINT "pipe_id_runs_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Every statement that writes pipe ids adds their characters to the runs holding them (the last
-- run starting at or before each id; a first run from '' when the enterprise has none yet), so a
-- run's characters stay a superset of its ids'. Removed ids stay counted in (a superset still);
-- an import that replaces the network cuts its runs afresh. The ids are placed first (one lookup
-- each, not one per character).
CREATE FUNCTION pipe_id_runs_hold(enterprise_ids integer[], pipe_ids text[]) RETURNS void LANGUAGE sql AS $$
  WITH placed AS MATERIALIZED (
    SELECT i.enterprise_id, i.pipe_id,
           coalesce((SELECT max(r.first_pipe_id) FROM pipe_id_runs r WHERE r.enterprise_id = i.enterprise_id AND r.first_pipe_id <= i.pipe_id), '') AS run
    FROM unnest(enterprise_ids, pipe_ids) AS i(enterprise_id, pipe_id)
  )
  INSERT INTO pipe_id_runs AS r (enterprise_id, first_pipe_id, chars)
  SELECT enterprise_id, run, array_agg(DISTINCT c ORDER BY c)
  FROM placed CROSS JOIN LATERAL unnest(string_to_array(lower(pipe_id), NULL)) c
  GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (enterprise_id, first_pipe_id) DO UPDATE
  SET chars = ARRAY(SELECT DISTINCT u FROM unnest(r.chars || excluded.chars) u ORDER BY 1)
  WHERE NOT r.chars @> excluded.chars
$$;--> statement-breakpoint
CREATE FUNCTION pipe_id_runs_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pipe_id_runs_hold(array_agg(enterprise_id), array_agg(pipe_id)) FROM added;
  RETURN NULL;
END $$;--> statement-breakpoint
-- An update counts only the ids it changed (attribute edits of a whole network add nothing).
CREATE FUNCTION pipe_id_runs_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pipe_id_runs_hold(array_agg(a.enterprise_id), array_agg(a.pipe_id)) FROM added a
  WHERE NOT EXISTS (SELECT 1 FROM removed o WHERE o.id = a.id AND o.enterprise_id = a.enterprise_id AND o.pipe_id = a.pipe_id);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER pipes_id_runs_insert AFTER INSERT ON pipes REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION pipe_id_runs_insert();--> statement-breakpoint
CREATE TRIGGER pipes_id_runs_update AFTER UPDATE ON pipes REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION pipe_id_runs_update();--> statement-breakpoint
-- The networks already kept, cut into runs of 2,000 ids (RUN_IDS in modules/pipelines/idRuns.ts).
INSERT INTO pipe_id_runs (enterprise_id, first_pipe_id, chars)
SELECT enterprise_id, CASE WHEN run = 0 THEN '' ELSE min(pipe_id) END, array_agg(DISTINCT c ORDER BY c)
FROM (SELECT enterprise_id, pipe_id, (row_number() OVER (PARTITION BY enterprise_id ORDER BY pipe_id) - 1) / 2000 AS run FROM pipes) numbered
CROSS JOIN LATERAL unnest(string_to_array(lower(pipe_id), NULL)) c
GROUP BY enterprise_id, run;
