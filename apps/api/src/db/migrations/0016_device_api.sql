CREATE TABLE "app_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"device_id" uuid NOT NULL,
	"credential_id" uuid NOT NULL,
	"doctor_id" uuid,
	"technician_id" uuid,
	"access_hash" text NOT NULL,
	"access_expires_at" timestamp with time zone NOT NULL,
	"refresh_hash" text NOT NULL,
	"refresh_expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "device_credentials" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"device_id" uuid NOT NULL,
	"secret_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "enrolment_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"device_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"voided_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "last_seen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "app_version_code" integer;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "app_version_name" text;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "reported_latitude" double precision;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "reported_longitude" double precision;--> statement-breakpoint
ALTER TABLE "doctors" ADD COLUMN "client_id" uuid;--> statement-breakpoint
ALTER TABLE "doctors" ADD COLUMN "received_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "doctors" ADD COLUMN "nick_name" text;--> statement-breakpoint
ALTER TABLE "doctors" ADD COLUMN "sex" smallint;--> statement-breakpoint
ALTER TABLE "doctors" ADD COLUMN "age" smallint;--> statement-breakpoint
ALTER TABLE "doctors" ADD COLUMN "city" text;--> statement-breakpoint
ALTER TABLE "doctors" ADD COLUMN "state" text;--> statement-breakpoint
ALTER TABLE "doctors" ADD COLUMN "country" text;--> statement-breakpoint
ALTER TABLE "doctors" ADD COLUMN "latitude" double precision;--> statement-breakpoint
ALTER TABLE "doctors" ADD COLUMN "longitude" double precision;--> statement-breakpoint
ALTER TABLE "doctors" ADD COLUMN "password_hash" text;--> statement-breakpoint
ALTER TABLE "doctors" ADD COLUMN "role_id" uuid;--> statement-breakpoint
ALTER TABLE "doctors" ADD COLUMN "registered_by" uuid;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "client_id" uuid;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "received_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "address" text;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "nick_name" text;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "sex" smallint;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "age" smallint;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "city" text;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "state" text;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "country" text;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "latitude" double precision;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "longitude" double precision;--> statement-breakpoint
ALTER TABLE "technicians" ADD COLUMN "client_id" uuid;--> statement-breakpoint
ALTER TABLE "technicians" ADD COLUMN "received_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "technicians" ADD COLUMN "account_id" uuid;--> statement-breakpoint
ALTER TABLE "treatment_images" ADD COLUMN "client_id" uuid;--> statement-breakpoint
ALTER TABLE "treatment_records" ADD COLUMN "client_id" uuid;--> statement-breakpoint
ALTER TABLE "treatment_records" ADD COLUMN "received_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "access_logs" ADD COLUMN "client_id" uuid;--> statement-breakpoint
ALTER TABLE "access_logs" ADD COLUMN "received_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "error_logs" ADD COLUMN "client_id" uuid;--> statement-breakpoint
ALTER TABLE "error_logs" ADD COLUMN "received_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "app_sessions" ADD CONSTRAINT "app_sessions_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_sessions" ADD CONSTRAINT "app_sessions_credential_id_device_credentials_id_fk" FOREIGN KEY ("credential_id") REFERENCES "public"."device_credentials"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_sessions" ADD CONSTRAINT "app_sessions_doctor_id_doctors_id_fk" FOREIGN KEY ("doctor_id") REFERENCES "public"."doctors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_sessions" ADD CONSTRAINT "app_sessions_technician_id_technicians_id_fk" FOREIGN KEY ("technician_id") REFERENCES "public"."technicians"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_credentials" ADD CONSTRAINT "device_credentials_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrolment_codes" ADD CONSTRAINT "enrolment_codes_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrolment_codes" ADD CONSTRAINT "enrolment_codes_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "app_sessions_access_hash_idx" ON "app_sessions" USING btree ("access_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "app_sessions_refresh_hash_idx" ON "app_sessions" USING btree ("refresh_hash");--> statement-breakpoint
CREATE INDEX "app_sessions_device_id_idx" ON "app_sessions" USING btree ("device_id");--> statement-breakpoint
CREATE UNIQUE INDEX "device_credentials_secret_hash_idx" ON "device_credentials" USING btree ("secret_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "device_credentials_live_per_device_idx" ON "device_credentials" USING btree ("device_id") WHERE "device_credentials"."revoked_at" is null;--> statement-breakpoint
CREATE INDEX "device_credentials_device_id_idx" ON "device_credentials" USING btree ("device_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "enrolment_codes_code_hash_idx" ON "enrolment_codes" USING btree ("code_hash");--> statement-breakpoint
CREATE INDEX "enrolment_codes_device_id_idx" ON "enrolment_codes" USING btree ("device_id","created_at");--> statement-breakpoint
ALTER TABLE "doctors" ADD CONSTRAINT "doctors_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "technicians" ADD CONSTRAINT "technicians_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "devices_last_seen_at_id_idx" ON "devices" USING btree (coalesce("last_seen_at", '-infinity'::timestamptz),"id");--> statement-breakpoint
CREATE INDEX "devices_app_version_code_id_idx" ON "devices" USING btree (coalesce("app_version_code", -1),"id");--> statement-breakpoint
CREATE UNIQUE INDEX "doctors_device_id_client_id_idx" ON "doctors" USING btree ("device_id","client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "doctors_device_id_user_name_lower_idx" ON "doctors" USING btree ("device_id",lower("user_name")) WHERE "doctors"."password_hash" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "patients_device_id_client_id_idx" ON "patients" USING btree ("device_id","client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "technicians_device_id_account_id_idx" ON "technicians" USING btree ("device_id","account_id");--> statement-breakpoint
CREATE INDEX "technicians_account_id_idx" ON "technicians" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "treatment_records_device_id_client_id_idx" ON "treatment_records" USING btree ("device_id","client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "access_logs_machine_client_id_idx" ON "access_logs" USING btree ("machine_number","client_id") WHERE "access_logs"."client_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "error_logs_machine_client_id_idx" ON "error_logs" USING btree ("machine_number","client_id") WHERE "error_logs"."client_id" is not null;