CREATE TABLE "throttles" (
	"scope" text NOT NULL,
	"subject" text NOT NULL,
	"count" integer NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	CONSTRAINT "throttles_scope_subject_pk" PRIMARY KEY("scope","subject")
);
--> statement-breakpoint
DROP TABLE "login_failures" CASCADE;--> statement-breakpoint
CREATE INDEX "throttles_window_idx" ON "throttles" USING btree ("window_start");