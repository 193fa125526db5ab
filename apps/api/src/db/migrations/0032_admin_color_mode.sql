-- Issue 17 (decision 054): each admin's colour mode of the console (system, light or dark), on the
-- server so it follows the admin to another browser.
CREATE TABLE "admin_settings" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"color_mode" text DEFAULT 'system' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "admin_settings" ADD CONSTRAINT "admin_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;