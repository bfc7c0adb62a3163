CREATE TABLE "sensor_devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"enterprise_id" integer NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"lon" double precision NOT NULL,
	"lat" double precision NOT NULL,
	"pipe_id" text,
	"pipe_distance_m" double precision,
	"gateway" text,
	"interval_seconds" integer DEFAULT 60 NOT NULL,
	"thresholds" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"credential_hash" text,
	"broker_hash" text,
	"state" text DEFAULT 'new' NOT NULL,
	"state_since" timestamp with time zone DEFAULT now() NOT NULL,
	"last_value" double precision,
	"last_at" timestamp with time zone,
	"drop_at" timestamp with time zone,
	"drop_per_minute" double precision,
	"refused" bigint DEFAULT 0 NOT NULL,
	"simulated" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sensor_ingest_nodes" (
	"client_id" text PRIMARY KEY NOT NULL,
	"seen_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sensor_readings" (
	"device_id" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"value" double precision NOT NULL,
	CONSTRAINT "sensor_readings_device_id_at_pk" PRIMARY KEY("device_id","at")
) PARTITION BY RANGE ("at");
--> statement-breakpoint
CREATE TABLE "sensor_refusals" (
	"enterprise_id" integer NOT NULL,
	"code" text NOT NULL,
	"reason" text NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	"sample" text,
	CONSTRAINT "sensor_refusals_enterprise_id_code_reason_pk" PRIMARY KEY("enterprise_id","code","reason")
);
--> statement-breakpoint
ALTER TABLE "sensor_devices" ADD CONSTRAINT "sensor_devices_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sensor_refusals" ADD CONSTRAINT "sensor_refusals_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sensor_devices_code_idx" ON "sensor_devices" USING btree ("enterprise_id","code");--> statement-breakpoint
CREATE INDEX "sensor_devices_state_idx" ON "sensor_devices" USING btree ("enterprise_id","state");--> statement-breakpoint
CREATE INDEX "sensor_devices_pipe_idx" ON "sensor_devices" USING btree ("enterprise_id","pipe_id");--> statement-breakpoint
-- A month of readings is a partition of its own ("sensor_readings_<yyyy>_<mm>", UTC months), made by
-- the ingest when the month's first reading comes (modules/sensors/store.ts), so old months are
-- dropped or archived whole and a month's index stays the size of a month.
CREATE FUNCTION sensor_readings_month_add(month_start timestamptz) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  first timestamptz := date_trunc('month', month_start AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
BEGIN
  EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF sensor_readings FOR VALUES FROM (%L) TO (%L)',
    'sensor_readings_' || to_char(first AT TIME ZONE 'UTC', 'YYYY_MM'), first, first + interval '1 month');
END $$;
--> statement-breakpoint
-- The state a reading puts a device in, from the state it was in: a bound crossed raises it at
-- once; it falls back only once the reading is past the bound by the hysteresis band, so a value
-- hovering at a bound does not raise and clear all day. States that are not levels (new, silent,
-- fault) start afresh.
CREATE FUNCTION sensor_state(t jsonb, prev text, v float8) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT (ARRAY['normal', 'warning', 'alarm'])[1 + greatest(raw, least(held, CASE prev WHEN 'alarm' THEN 2 WHEN 'warning' THEN 1 ELSE 0 END))]
  FROM (SELECT
      CASE WHEN v >= aa OR v <= ba THEN 2 WHEN v >= aw OR v <= bw THEN 1 ELSE 0 END AS raw,
      CASE WHEN v >= aa - h OR v <= ba + h THEN 2 WHEN v >= aw - h OR v <= bw + h THEN 1 ELSE 0 END AS held
    FROM (SELECT (t->>'aboveWarning')::float8 AS aw, (t->>'aboveAlarm')::float8 AS aa, (t->>'belowWarning')::float8 AS bw,
                 (t->>'belowAlarm')::float8 AS ba, coalesce((t->>'hysteresis')::float8, 0) AS h) b) r
$$;
