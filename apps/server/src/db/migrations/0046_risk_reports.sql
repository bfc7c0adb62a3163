CREATE TABLE "risk_reports" (
	"id" serial PRIMARY KEY NOT NULL,
	"enterprise_id" integer NOT NULL,
	"month" text NOT NULL,
	"trigger" text NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"figures" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notify_channels" ADD COLUMN "reports" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "risk_reports" ADD CONSTRAINT "risk_reports_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_reports" ADD CONSTRAINT "risk_reports_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "risk_reports_enterprise_idx" ON "risk_reports" USING btree ("enterprise_id","month");--> statement-breakpoint
CREATE UNIQUE INDEX "risk_reports_monthly_idx" ON "risk_reports" USING btree ("enterprise_id","month") WHERE trigger = 'monthly';