CREATE TABLE "audit_journal_marks" (
	"file" text PRIMARY KEY NOT NULL,
	"line" integer NOT NULL
);
