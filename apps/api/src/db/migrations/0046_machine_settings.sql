CREATE TABLE "fleet_settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	"updated_by" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "settings_own" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "settings_from_groups" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "settings_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "settings_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "settings_applied_version" integer;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "settings_applied_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "machine_groups" ADD COLUMN "settings" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
CREATE INDEX "machine_commands_failed_idx" ON "machine_commands" USING btree ("finished_at","device_id") WHERE "machine_commands"."state" = 'failed';--> statement-breakpoint
CREATE INDEX "devices_settings_drift_idx" ON "devices" USING btree ("settings_changed_at") WHERE "devices"."settings_version" > coalesce("devices"."settings_applied_version", 0);