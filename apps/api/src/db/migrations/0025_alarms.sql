CREATE TABLE "alarm_digest_recipients" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "alarms" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"device_id" uuid NOT NULL,
	"rule" text NOT NULL,
	"detail" jsonb NOT NULL,
	"opened_at" timestamp (3) with time zone NOT NULL,
	"acknowledged_at" timestamp (3) with time zone,
	"acknowledged_by" text,
	"resolved_at" timestamp (3) with time zone,
	"resolved_by" text,
	CONSTRAINT "alarms_rule_known" CHECK ("alarms"."rule" in ('offline', 'app-version', 'error-burst', 'revoked-calls'))
);
--> statement-breakpoint
ALTER TABLE "device_credentials" ADD COLUMN "revoked_call_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alarm_digest_recipients" ADD CONSTRAINT "alarm_digest_recipients_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarms" ADD CONSTRAINT "alarms_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alarms_open_device_rule_idx" ON "alarms" USING btree ("device_id","rule") WHERE "alarms"."resolved_at" is null;--> statement-breakpoint
CREATE INDEX "alarms_open_opened_idx" ON "alarms" USING btree ("opened_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "alarms"."resolved_at" is null;--> statement-breakpoint
CREATE INDEX "alarms_past_resolved_idx" ON "alarms" USING btree ("resolved_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "alarms"."resolved_at" is not null;--> statement-breakpoint
CREATE INDEX "alarms_device_opened_idx" ON "alarms" USING btree ("device_id","opened_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "device_credentials_revoked_call_idx" ON "device_credentials" USING btree ("revoked_call_at") WHERE "device_credentials"."revoked_call_at" is not null;--> statement-breakpoint
-- Counters kept by statement triggers (like 0010), so the bell's open count and the Alarms list's
-- unfiltered totals read one row instead of counting a table that grows with the fleet's history:
-- table_row_counts['alarms'] (every alarm) and ['alarms_open'] (not resolved yet).
INSERT INTO table_row_counts (table_name, n) VALUES ('alarms', 0), ('alarms_open', 0)
ON CONFLICT (table_name) DO UPDATE SET n = 0;
--> statement-breakpoint
CREATE TRIGGER alarms_count_insert AFTER INSERT ON alarms
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION table_row_counts_apply();
--> statement-breakpoint
CREATE TRIGGER alarms_count_delete AFTER DELETE ON alarms
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION table_row_counts_apply();
--> statement-breakpoint
CREATE TRIGGER alarms_count_truncate AFTER TRUNCATE ON alarms
  FOR EACH STATEMENT EXECUTE FUNCTION table_row_counts_apply();
--> statement-breakpoint
-- The open count moves by (open rows after) - (open rows before) of each statement: an insert, a
-- resolution (one alarm or a whole rule's worth at a check), a machine deleted with its alarms.
CREATE OR REPLACE FUNCTION alarms_open_count_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta bigint := 0;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE table_row_counts SET n = 0 WHERE table_name = 'alarms_open';
    RETURN NULL;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    delta := delta + (SELECT count(*) FROM new_rows WHERE resolved_at IS NULL);
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    delta := delta - (SELECT count(*) FROM old_rows WHERE resolved_at IS NULL);
  END IF;
  IF delta <> 0 THEN
    UPDATE table_row_counts SET n = n + delta WHERE table_name = 'alarms_open';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER alarms_open_count_insert AFTER INSERT ON alarms
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION alarms_open_count_apply();
--> statement-breakpoint
CREATE TRIGGER alarms_open_count_update AFTER UPDATE ON alarms
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION alarms_open_count_apply();
--> statement-breakpoint
CREATE TRIGGER alarms_open_count_delete AFTER DELETE ON alarms
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION alarms_open_count_apply();
--> statement-breakpoint
CREATE TRIGGER alarms_open_count_truncate AFTER TRUNCATE ON alarms
  FOR EACH STATEMENT EXECUTE FUNCTION alarms_open_count_apply();
