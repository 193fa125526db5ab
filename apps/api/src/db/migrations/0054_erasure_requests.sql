CREATE TABLE "erasure_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"patient_id" uuid,
	"patient_user_id" integer,
	"machine_number" text,
	"channel" text NOT NULL,
	"received_on" date NOT NULL,
	"note" text,
	"requested_at" timestamp (3) with time zone NOT NULL,
	"requested_by_id" uuid,
	"requested_by_email" text NOT NULL,
	"requested_by_name" text NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"decided_at" timestamp (3) with time zone,
	"decided_by_id" uuid,
	"decided_by_email" text,
	"decided_by_name" text,
	"parts_erased" text[] DEFAULT '{}'::text[] NOT NULL,
	"parts_kept" text[] DEFAULT '{}'::text[] NOT NULL,
	"legal_basis" text,
	"basis_note" text,
	"outcome" jsonb DEFAULT '[]'::jsonb NOT NULL,
	CONSTRAINT "erasure_requests_note_length" CHECK (char_length("erasure_requests"."note") <= 500),
	CONSTRAINT "erasure_requests_decision_whole" CHECK (("erasure_requests"."state" = 'open') = ("erasure_requests"."decided_at" is null) and ("erasure_requests"."decided_at" is null) = ("erasure_requests"."decided_by_email" is null))
);
--> statement-breakpoint
ALTER TABLE "erasure_requests" ADD CONSTRAINT "erasure_requests_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "erasure_requests" ADD CONSTRAINT "erasure_requests_requested_by_id_users_id_fk" FOREIGN KEY ("requested_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "erasure_requests" ADD CONSTRAINT "erasure_requests_decided_by_id_users_id_fk" FOREIGN KEY ("decided_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "erasure_requests_open_patient_idx" ON "erasure_requests" USING btree ("patient_id") WHERE "erasure_requests"."state" = 'open';--> statement-breakpoint
CREATE INDEX "erasure_requests_state_idx" ON "erasure_requests" USING btree ("state","requested_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
-- Erasure (decision 085) is the one path that changes history rows: a patient's erased fields keep
-- their rows (that the field changed, when, by whom and why) but lose their values. Only an UPDATE
-- on record_history of a patient's row, with the transaction-local app.history_erasure on (set by
-- record_history_erase below and nothing else), that changes old_value and new_value alone passes;
-- the retention path of migration 0053 (a DELETE with app.retention_removal) is kept as it was.
CREATE OR REPLACE FUNCTION audit_rows_are_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND TG_LEVEL = 'ROW' AND current_setting('app.retention_removal', true) = 'on' THEN
    RETURN OLD;
  END IF;
  -- Nested: the inner test names record_history's columns, which another table's row has not.
  IF TG_OP = 'UPDATE' AND TG_LEVEL = 'ROW' AND TG_TABLE_NAME = 'record_history'
    AND current_setting('app.history_erasure', true) = 'on' THEN
    IF OLD.record_kind = 'patient'
      AND (NEW.id, NEW.changed_at, NEW.record_kind, NEW.record_id, NEW.field, NEW.secret, NEW.actor_id,
        NEW.actor_email, NEW.session_id, NEW.request_id, NEW.reason)
        IS NOT DISTINCT FROM (OLD.id, OLD.changed_at, OLD.record_kind, OLD.record_id, OLD.field, OLD.secret,
        OLD.actor_id, OLD.actor_email, OLD.session_id, OLD.request_id, OLD.reason) THEN
      RETURN NEW;
    END IF;
  END IF;
  RAISE EXCEPTION 'audit rows are append-only: % on % is not allowed', TG_OP, TG_TABLE_NAME
    USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
-- Replaces the values of one patient's erased fields in their change history with `mark`; returns
-- how many values it replaced (a value already erased is not counted again).
CREATE FUNCTION record_history_erase(patient_id text, fields text[], mark jsonb) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
DECLARE
  n bigint;
BEGIN
  PERFORM set_config('app.history_erasure', 'on', true);
  UPDATE record_history SET
    old_value = CASE WHEN old_value IS NULL THEN NULL ELSE mark END,
    new_value = CASE WHEN new_value IS NULL THEN NULL ELSE mark END
  WHERE record_kind = 'patient' AND record_id = patient_id AND field = ANY(fields)
    AND (old_value IS DISTINCT FROM mark AND old_value IS NOT NULL
      OR new_value IS DISTINCT FROM mark AND new_value IS NOT NULL);
  GET DIAGNOSTICS n = ROW_COUNT;
  PERFORM set_config('app.history_erasure', '', true);
  RETURN n;
END
$$;
--> statement-breakpoint
REVOKE EXECUTE ON FUNCTION record_history_erase(text, text[], jsonb) FROM PUBLIC;
