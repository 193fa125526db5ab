CREATE TABLE "safety_notice_contacts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"notice_id" uuid NOT NULL,
	"email" text NOT NULL,
	"token_hash" text NOT NULL,
	"notified_at" timestamp (3) with time zone NOT NULL,
	"acknowledged_at" timestamp (3) with time zone,
	"acknowledged_by" text,
	CONSTRAINT "safety_notice_contacts_ack_whole" CHECK (("safety_notice_contacts"."acknowledged_at" is null) = ("safety_notice_contacts"."acknowledged_by" is null))
);
--> statement-breakpoint
CREATE TABLE "safety_notice_machines" (
	"notice_id" uuid NOT NULL,
	"device_id" uuid,
	"machine_number" text NOT NULL,
	"serial_number" text NOT NULL,
	"app_version_code" integer,
	"app_version_name" text,
	"contact_id" uuid
);
--> statement-breakpoint
CREATE TABLE "safety_notices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reference" text NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"kind" text NOT NULL,
	"remedy_text" text NOT NULL,
	"selection" jsonb NOT NULL,
	"remedy_kind" text,
	"remedy_id" uuid,
	"remedy_version_code" integer,
	"state" text DEFAULT 'draft' NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"created_by_id" uuid,
	"created_by" text NOT NULL,
	"sent_at" timestamp (3) with time zone,
	"sent_by_id" uuid,
	"sent_by" text,
	CONSTRAINT "safety_notices_state_known" CHECK ("safety_notices"."state" in ('draft', 'sent')),
	CONSTRAINT "safety_notices_sent_whole" CHECK (("safety_notices"."state" = 'sent') = ("safety_notices"."sent_at" is not null)),
	CONSTRAINT "safety_notices_remedy_whole" CHECK (("safety_notices"."remedy_kind" is null) = ("safety_notices"."remedy_id" is null))
);
--> statement-breakpoint
ALTER TABLE "safety_notice_contacts" ADD CONSTRAINT "safety_notice_contacts_notice_id_safety_notices_id_fk" FOREIGN KEY ("notice_id") REFERENCES "public"."safety_notices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "safety_notice_machines" ADD CONSTRAINT "safety_notice_machines_notice_id_safety_notices_id_fk" FOREIGN KEY ("notice_id") REFERENCES "public"."safety_notices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "safety_notice_machines" ADD CONSTRAINT "safety_notice_machines_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "safety_notice_machines" ADD CONSTRAINT "safety_notice_machines_contact_id_safety_notice_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."safety_notice_contacts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "safety_notices" ADD CONSTRAINT "safety_notices_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "safety_notices" ADD CONSTRAINT "safety_notices_sent_by_id_users_id_fk" FOREIGN KEY ("sent_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "safety_notice_contacts_token_idx" ON "safety_notice_contacts" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "safety_notice_contacts_email_idx" ON "safety_notice_contacts" USING btree ("notice_id",lower("email"));--> statement-breakpoint
CREATE INDEX "safety_notice_machines_notice_idx" ON "safety_notice_machines" USING btree ("notice_id","serial_number");--> statement-breakpoint
CREATE INDEX "safety_notice_machines_contact_idx" ON "safety_notice_machines" USING btree ("contact_id");--> statement-breakpoint
CREATE UNIQUE INDEX "safety_notices_reference_idx" ON "safety_notices" USING btree (lower("reference"));--> statement-breakpoint
CREATE INDEX "safety_notices_created_idx" ON "safety_notices" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);