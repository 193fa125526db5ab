CREATE TABLE "machine_commands" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"device_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"created_by_id" uuid,
	"created_by" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"delivered_at" timestamp (3) with time zone,
	"deliveries" integer DEFAULT 0 NOT NULL,
	"finished_at" timestamp (3) with time zone,
	"message" text,
	"diagnostics_key" text,
	"diagnostics_size" bigint,
	"diagnostics_type" text,
	"diagnostics_at" timestamp (3) with time zone,
	CONSTRAINT "machine_commands_kind_known" CHECK ("machine_commands"."kind" in ('sync-now', 'upload-diagnostics', 'restart-app', 'safety-hold', 'release-hold', 're-enrol')),
	CONSTRAINT "machine_commands_state_known" CHECK ("machine_commands"."state" in ('queued', 'delivered', 'succeeded', 'failed', 'expired', 'cancelled'))
);
--> statement-breakpoint
ALTER TABLE "machine_commands" ADD CONSTRAINT "machine_commands_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "machine_commands_open_idx" ON "machine_commands" USING btree ("device_id","created_at") WHERE "machine_commands"."state" in ('queued', 'delivered');--> statement-breakpoint
CREATE INDEX "machine_commands_device_created_idx" ON "machine_commands" USING btree ("device_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "machine_commands_open_expiry_idx" ON "machine_commands" USING btree ("expires_at") WHERE "machine_commands"."state" in ('queued', 'delivered');--> statement-breakpoint
-- A new command is announced on 'command_queued' as its machine's id, at commit, so each API
-- instance knows which machines have something waiting without reading on every heartbeat, and
-- wakes a machine's long-poll at once (modules/commands/command-inbox.ts). One notice per
-- statement and machine: PostgreSQL folds identical notices of one transaction.
CREATE OR REPLACE FUNCTION notify_command_queued() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('command_queued', NEW.device_id::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER machine_commands_queued AFTER INSERT ON machine_commands
  FOR EACH ROW EXECUTE FUNCTION notify_command_queued();
