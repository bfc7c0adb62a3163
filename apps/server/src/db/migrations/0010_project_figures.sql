ALTER TABLE "projects" ADD COLUMN "pipe_length_m" jsonb;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "pipe_length_version" integer;