ALTER TABLE "app_updates" ADD COLUMN "approval_pending" text;--> statement-breakpoint
ALTER TABLE "app_updates" ADD COLUMN "approval_requested_by" uuid;--> statement-breakpoint
ALTER TABLE "app_updates" ADD CONSTRAINT "app_updates_approval_requested_by_users_id_fk" FOREIGN KEY ("approval_requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_updates" ADD CONSTRAINT "app_updates_approval_pending_check" CHECK ("app_updates"."approval_pending" in ('release', 'full-stage'));