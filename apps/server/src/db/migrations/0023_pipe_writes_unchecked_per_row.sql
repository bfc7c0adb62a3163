-- A million-pipe import spent a fifth of its final statement checking each row's enterprise, and
-- its staging as long checking each staged row's job. Pipes' enterprises are checked once per
-- statement through pipe_counts (whose foreign key checks every enterprise a statement adds pipes
-- to); the cascades those keys gave are triggers now. Staged rows are transient: unlogged.
ALTER TABLE "pipe_import_rows" DROP CONSTRAINT "pipe_import_rows_job_id_import_jobs_id_fk";--> statement-breakpoint
ALTER TABLE "pipes" DROP CONSTRAINT "pipes_enterprise_id_enterprises_id_fk";--> statement-breakpoint
ALTER TABLE "pipe_import_rows" SET UNLOGGED;--> statement-breakpoint
CREATE FUNCTION enterprise_pipes_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM pipes WHERE enterprise_id = OLD.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER enterprises_pipes_remove AFTER DELETE ON enterprises FOR EACH ROW EXECUTE FUNCTION enterprise_pipes_remove();--> statement-breakpoint
CREATE FUNCTION import_job_rows_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM pipe_import_rows WHERE job_id = OLD.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER import_jobs_rows_remove AFTER DELETE ON import_jobs FOR EACH ROW EXECUTE FUNCTION import_job_rows_remove();
