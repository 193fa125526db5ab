ALTER TABLE "app_updates" ADD COLUMN "respects_window" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "update_waiting_release_id" uuid;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "update_waiting_reason" text;--> statement-breakpoint
CREATE INDEX "devices_update_waiting_idx" ON "devices" USING btree ("update_waiting_release_id") WHERE "devices"."update_waiting_release_id" is not null;