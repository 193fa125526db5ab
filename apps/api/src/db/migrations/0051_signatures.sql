CREATE TABLE "signatures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"record_type" text NOT NULL,
	"record_id" text NOT NULL,
	"signer_id" uuid NOT NULL,
	"signer_name" text NOT NULL,
	"signer_email" text NOT NULL,
	"meaning" text NOT NULL,
	"content_hash" text NOT NULL,
	"signed_at" timestamp (3) with time zone NOT NULL,
	"session_id" uuid,
	CONSTRAINT "signatures_meaning" CHECK ("signatures"."meaning" in ('approval', 'review', 'responsibility', 'authorship')),
	CONSTRAINT "signatures_content_hash" CHECK ("signatures"."content_hash" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
CREATE INDEX "signatures_record_idx" ON "signatures" USING btree ("record_type","record_id","signed_at");--> statement-breakpoint
-- Signatures are audit data: append-only like the audit trail (decision 013, migration 0014).
CREATE TRIGGER signatures_append_only BEFORE UPDATE OR DELETE ON signatures
  FOR EACH ROW EXECUTE FUNCTION audit_rows_are_append_only();
--> statement-breakpoint
CREATE TRIGGER signatures_no_truncate BEFORE TRUNCATE ON signatures
  FOR EACH STATEMENT EXECUTE FUNCTION audit_rows_are_append_only();
--> statement-breakpoint
REVOKE UPDATE, DELETE, TRUNCATE ON signatures FROM PUBLIC;
