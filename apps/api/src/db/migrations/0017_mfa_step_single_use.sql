CREATE TABLE "mfa_used_step_tokens" (
	"jti" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mfa_used_step_tokens" ADD CONSTRAINT "mfa_used_step_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mfa_used_step_tokens_expires_idx" ON "mfa_used_step_tokens" USING btree ("expires_at");