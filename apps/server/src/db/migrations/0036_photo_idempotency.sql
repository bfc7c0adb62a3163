ALTER TABLE "alert_photos" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "alert_photos_idempotency_idx" ON "alert_photos" USING btree ("event_id","idempotency_key");