CREATE TABLE "password_resets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"otp_hash" text NOT NULL,
	"otp_attempts" integer DEFAULT 0 NOT NULL,
	"otp_expires_at" timestamp with time zone NOT NULL,
	"otp_used_at" timestamp with time zone,
	"token_hash" text,
	"token_expires_at" timestamp with time zone,
	"token_used_at" timestamp with time zone,
	"voided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "access_logs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"user_id" text,
	"user_email" text,
	"resource" text NOT NULL,
	"location" text,
	"status_code" smallint,
	"duration_ms" integer,
	"machine_number" text,
	"record_kind" text,
	"record_id" text
);
--> statement-breakpoint
CREATE TABLE "error_logs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"user_id" text,
	"user_email" text,
	"resource" text NOT NULL,
	"function_name" text NOT NULL,
	"status_code" smallint,
	"message" text,
	"location" text,
	"machine_number" text
);
--> statement-breakpoint
CREATE TABLE "log_counters" (
	"log_kind" text NOT NULL,
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "log_counters_log_kind_scope_key_pk" PRIMARY KEY("log_kind","scope","key")
);
--> statement-breakpoint
ALTER TABLE "password_resets" ADD CONSTRAINT "password_resets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "password_resets_user_id_idx" ON "password_resets" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "password_resets_token_hash_idx" ON "password_resets" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "access_logs_created_idx" ON "access_logs" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "access_logs_user_created_idx" ON "access_logs" USING btree ("user_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "access_logs_machine_created_idx" ON "access_logs" USING btree ("machine_number","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "access_logs_record_created_idx" ON "access_logs" USING btree ("record_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "access_logs"."record_id" is not null;--> statement-breakpoint
CREATE INDEX "access_logs_search_trgm_idx" ON "access_logs" USING gin (("resource" || ' ' || coalesce("user_email", '') || ' ' || coalesce("location", '') || ' ' || coalesce("machine_number", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "error_logs_created_idx" ON "error_logs" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "error_logs_user_created_idx" ON "error_logs" USING btree ("user_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "error_logs_machine_created_idx" ON "error_logs" USING btree ("machine_number","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "error_logs_search_trgm_idx" ON "error_logs" USING gin (("resource" || ' ' || "function_name" || ' ' || coalesce("message", '') || ' ' || coalesce("user_email", '') || ' ' || coalesce("location", '') || ' ' || coalesce("machine_number", '')) gin_trgm_ops);