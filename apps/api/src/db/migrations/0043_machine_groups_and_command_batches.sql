CREATE TABLE "command_batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"ttl_minutes" integer NOT NULL,
	"target" jsonb NOT NULL,
	"state" text NOT NULL,
	"machine_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"created_by_id" uuid,
	"created_by" text NOT NULL,
	"decided_at" timestamp (3) with time zone,
	"decided_by" text,
	CONSTRAINT "command_batches_kind_known" CHECK ("command_batches"."kind" in ('sync-now', 'upload-diagnostics', 'restart-app', 'safety-hold', 'release-hold', 're-enrol')),
	CONSTRAINT "command_batches_state_known" CHECK ("command_batches"."state" in ('awaiting-approval', 'queued', 'rejected'))
);
--> statement-breakpoint
CREATE TABLE "machine_group_members" (
	"group_id" uuid NOT NULL,
	"device_id" uuid NOT NULL,
	"added_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "machine_group_members_group_id_device_id_pk" PRIMARY KEY("group_id","device_id")
);
--> statement-breakpoint
CREATE TABLE "machine_groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"filter" jsonb,
	"created_at" timestamp (3) with time zone NOT NULL,
	"created_by" text NOT NULL,
	CONSTRAINT "machine_groups_kind_known" CHECK ("machine_groups"."kind" in ('static', 'dynamic')),
	CONSTRAINT "machine_groups_filter_by_kind" CHECK (("machine_groups"."kind" = 'dynamic') = ("machine_groups"."filter" is not null))
);
--> statement-breakpoint
ALTER TABLE "machine_commands" ADD COLUMN "batch_id" uuid;--> statement-breakpoint
ALTER TABLE "machine_group_members" ADD CONSTRAINT "machine_group_members_group_id_machine_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."machine_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "machine_group_members" ADD CONSTRAINT "machine_group_members_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "command_batches_created_idx" ON "command_batches" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "machine_group_members_device_idx" ON "machine_group_members" USING btree ("device_id");--> statement-breakpoint
CREATE UNIQUE INDEX "machine_groups_name_idx" ON "machine_groups" USING btree (lower("name"));--> statement-breakpoint
ALTER TABLE "machine_commands" ADD CONSTRAINT "machine_commands_batch_id_command_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."command_batches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "machine_commands_batch_state_idx" ON "machine_commands" USING btree ("batch_id","state") WHERE "machine_commands"."batch_id" is not null;--> statement-breakpoint
-- Commands are announced per statement now (decision 077): a batch to 100,000 machines is one
-- INSERT, and 100,000 notices would reach every instance. Up to 100 new rows, each machine's id as
-- before; more, one '*': every instance then reads which machines have open commands again.
DROP TRIGGER machine_commands_queued ON machine_commands;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION notify_commands_queued() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  n integer;
  device uuid;
BEGIN
  SELECT count(*) INTO n FROM new_rows;
  IF n > 100 THEN
    PERFORM pg_notify('command_queued', '*');
  ELSE
    FOR device IN SELECT DISTINCT device_id FROM new_rows LOOP
      PERFORM pg_notify('command_queued', device::text);
    END LOOP;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER machine_commands_queued AFTER INSERT ON machine_commands
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_commands_queued();
--> statement-breakpoint
DROP FUNCTION notify_command_queued();
