DROP INDEX "pipes_enterprise_diameter_idx";--> statement-breakpoint
DROP INDEX "pipes_enterprise_year_idx";--> statement-breakpoint
CREATE INDEX "pipes_enterprise_diameter_year_idx" ON "pipes" USING btree ("enterprise_id","diameter_mm","install_year");--> statement-breakpoint
CREATE INDEX "pipes_enterprise_year_diameter_idx" ON "pipes" USING btree ("enterprise_id","install_year","diameter_mm");