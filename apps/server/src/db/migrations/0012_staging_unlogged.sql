DROP INDEX "pipe_import_rows_job_pipe_idx";--> statement-breakpoint
-- Staged rows live only while their job runs: no write-ahead log for them.
ALTER TABLE "pipe_import_rows" SET UNLOGGED;
