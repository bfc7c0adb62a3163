-- Two jobs of one kind left running for an enterprise by the race this index closes: the older
-- ends as failed (it would have been refused as busy).
UPDATE "import_jobs" SET "status" = 'failed', "finished_at" = now() WHERE "status" in ('validating', 'writing') AND "id" NOT IN (
  SELECT max("id") FROM "import_jobs" WHERE "status" in ('validating', 'writing') GROUP BY "enterprise_id", "kind");--> statement-breakpoint
CREATE UNIQUE INDEX "import_jobs_one_running_idx" ON "import_jobs" USING btree ("enterprise_id","kind") WHERE "import_jobs"."status" in ('validating', 'writing');