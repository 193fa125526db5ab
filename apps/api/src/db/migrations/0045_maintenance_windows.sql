ALTER TABLE "devices" ADD COLUMN "busy_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "maintenance_window" jsonb;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "maintenance_window_group_id" uuid;--> statement-breakpoint
ALTER TABLE "machine_groups" ADD COLUMN "maintenance_window" jsonb;