ALTER TABLE "app_updates" ADD COLUMN "rollout_percent" smallint DEFAULT 100 NOT NULL;--> statement-breakpoint
ALTER TABLE "app_updates" ADD COLUMN "rollout_state" text DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE "app_updates" ADD CONSTRAINT "app_updates_rollout_percent_check" CHECK ("app_updates"."rollout_percent" between 1 and 100);--> statement-breakpoint
ALTER TABLE "app_updates" ADD CONSTRAINT "app_updates_rollout_state_check" CHECK ("app_updates"."rollout_state" in ('active', 'paused', 'halted', 'withdrawn'));