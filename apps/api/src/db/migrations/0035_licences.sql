CREATE TABLE "licence_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"device_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"from_state" text,
	"to_state" text NOT NULL,
	"cause" text NOT NULL,
	"actor_email" text,
	"reason" text,
	"subscription_id" text,
	"paid_through" timestamp with time zone,
	"grace_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "licence_exemptions" (
	"device_id" uuid PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"reason" text NOT NULL,
	"until" timestamp with time zone NOT NULL,
	"created_by" uuid,
	"created_by_email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "licence_notices" (
	"device_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"period_key" text NOT NULL,
	"subscription_id" text,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "licence_notices_device_id_kind_period_key_pk" PRIMARY KEY("device_id","kind","period_key")
);
--> statement-breakpoint
CREATE TABLE "licence_signing_keys" (
	"kid" text PRIMARY KEY NOT NULL,
	"public_jwk" jsonb NOT NULL,
	"private_key_encrypted" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retired_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "subscription_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subscription_id" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"kind" text NOT NULL,
	"actor_id" uuid,
	"actor_email" text,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscription_payments" (
	"id" text PRIMARY KEY NOT NULL,
	"subscription_id" text NOT NULL,
	"provider" text NOT NULL,
	"provider_ref" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"paid_at" timestamp with time zone NOT NULL,
	"period_end" timestamp with time zone,
	"receipt_url" text
);
--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "licence_state" text DEFAULT 'unlicensed' NOT NULL;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "licence_paid_through" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "licence_active_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "licence_grace_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "licence_version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "licence_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "device_id" uuid;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "paid_through" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "grace_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "renewal_failed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "collection_paused_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "cancel_at_period_end" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "revoked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "licence_events" ADD CONSTRAINT "licence_events_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licence_exemptions" ADD CONSTRAINT "licence_exemptions_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licence_exemptions" ADD CONSTRAINT "licence_exemptions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licence_notices" ADD CONSTRAINT "licence_notices_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_events" ADD CONSTRAINT "subscription_events_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_events" ADD CONSTRAINT "subscription_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_payments" ADD CONSTRAINT "subscription_payments_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "licence_events_device_at_idx" ON "licence_events" USING btree ("device_id","at");--> statement-breakpoint
CREATE INDEX "subscription_events_subscription_at_idx" ON "subscription_events" USING btree ("subscription_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_payments_provider_ref_idx" ON "subscription_payments" USING btree ("provider","provider_ref");--> statement-breakpoint
CREATE INDEX "subscription_payments_subscription_idx" ON "subscription_payments" USING btree ("subscription_id","paid_at");--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "devices_licence_state_id_idx" ON "devices" USING btree ("licence_state","id");--> statement-breakpoint
CREATE INDEX "devices_licence_active_until_idx" ON "devices" USING btree ("licence_active_until") WHERE "devices"."licence_state" = 'active';--> statement-breakpoint
CREATE INDEX "devices_licence_grace_until_idx" ON "devices" USING btree ("licence_grace_until") WHERE "devices"."licence_state" = 'grace';--> statement-breakpoint
CREATE INDEX "subscriptions_device_id_idx" ON "subscriptions" USING btree ("device_id","created_at");--> statement-breakpoint
-- Each subscription belongs to the machine its serial number names (decision 068); one naming no
-- machine of the fleet keeps a null device_id (new ones are refused instead).
UPDATE "subscriptions" s SET "device_id" = d."id"
  FROM "devices" d WHERE lower(d."serial_number") = lower(s."machine_serial_number");
--> statement-breakpoint
-- What the payments made so far license: a recurring plan its paid period, a one-time payment 365
-- days from the payment (LICENCE_ONE_TIME_DAYS' default). The machines' states follow at the next
-- start, from the licence sweep.
UPDATE "subscriptions"
  SET "paid_through" = CASE WHEN "is_recurring" THEN "expired_at" ELSE "paid_at" + interval '365 days' END
  WHERE "paid_at" IS NOT NULL;
