DROP INDEX "pipes_enterprise_type_idx";--> statement-breakpoint
CREATE INDEX "pipes_enterprise_type_idx" ON "pipes" USING btree ("enterprise_id","network_type","pipe_id","material");