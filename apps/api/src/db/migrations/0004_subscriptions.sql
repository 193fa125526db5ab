CREATE TABLE "processed_payment_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"processed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"full_name" text NOT NULL,
	"email" text NOT NULL,
	"machine_serial_number" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"is_recurring" boolean NOT NULL,
	"plan_type" text,
	"status" smallint DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expired_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"provider" text,
	"provider_ref" text,
	"provider_intent_id" text,
	"payment_attempts" integer DEFAULT 0 NOT NULL,
	"last_payment_error" text,
	"created_by" uuid
);
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "subscriptions_machine_serial_number_idx" ON "subscriptions" USING btree ("machine_serial_number","created_at");--> statement-breakpoint
CREATE INDEX "subscriptions_status_expired_at_idx" ON "subscriptions" USING btree ("status","expired_at");--> statement-breakpoint
CREATE INDEX "subscriptions_created_at_idx" ON "subscriptions" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "subscriptions_provider_ref_idx" ON "subscriptions" USING btree ("provider_ref") WHERE "subscriptions"."provider_ref" is not null;