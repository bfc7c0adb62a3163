CREATE TABLE "import_words" (
	"enterprise_id" integer NOT NULL,
	"field" text NOT NULL,
	"word" text NOT NULL,
	"value" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "import_words_enterprise_id_field_word_pk" PRIMARY KEY("enterprise_id","field","word")
);
--> statement-breakpoint
ALTER TABLE "import_jobs" ADD COLUMN "unknown_words" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "import_words" ADD CONSTRAINT "import_words_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;