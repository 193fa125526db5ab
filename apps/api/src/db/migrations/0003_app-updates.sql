CREATE SEQUENCE "public"."app_user_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1001 CACHE 1;--> statement-breakpoint
CREATE TABLE "app_updates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"app_name" text NOT NULL,
	"version_code" integer NOT NULL,
	"version_name" text NOT NULL,
	"remark" text NOT NULL,
	"update_desc" text NOT NULL,
	"update_type" smallint NOT NULL,
	"storage_key" text NOT NULL,
	"file_name" text NOT NULL,
	"apk_size" bigint NOT NULL,
	"apk_sha256" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"machine_number" text NOT NULL,
	"serial_number" text NOT NULL,
	"location" text NOT NULL,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"city" text NOT NULL,
	"country" text NOT NULL,
	"address" text NOT NULL,
	"status" smallint DEFAULT 2 NOT NULL,
	"subscription_status" smallint,
	"search_text" text GENERATED ALWAYS AS (lower("devices"."machine_number" || ' ' || "devices"."serial_number" || ' ' || "devices"."location" || ' ' || "devices"."city" || ' ' || "devices"."country")) STORED NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "doctors" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" integer DEFAULT nextval('app_user_id_seq') NOT NULL,
	"device_id" uuid NOT NULL,
	"user_name" text NOT NULL,
	"email" text NOT NULL,
	"phonenumber" text,
	"address" text,
	"status" smallint DEFAULT 2 NOT NULL,
	"create_time" timestamp with time zone DEFAULT now(),
	CONSTRAINT "doctors_user_id_unique" UNIQUE("user_id")
);
--> statement-breakpoint
CREATE TABLE "patients" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" integer DEFAULT nextval('app_user_id_seq') NOT NULL,
	"device_id" uuid NOT NULL,
	"doctor_id" uuid,
	"patientname" text NOT NULL,
	"email" text NOT NULL,
	"phone" text,
	"create_time" timestamp with time zone DEFAULT now(),
	CONSTRAINT "patients_user_id_unique" UNIQUE("user_id")
);
--> statement-breakpoint
CREATE TABLE "technicians" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" integer DEFAULT nextval('app_user_id_seq') NOT NULL,
	"device_id" uuid NOT NULL,
	"user_name" text NOT NULL,
	"email" text NOT NULL,
	"phonenumber" text,
	"status" smallint DEFAULT 2 NOT NULL,
	"create_time" timestamp with time zone DEFAULT now(),
	CONSTRAINT "technicians_user_id_unique" UNIQUE("user_id")
);
--> statement-breakpoint
CREATE TABLE "treatment_images" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"treatment_id" uuid NOT NULL,
	"url" text NOT NULL,
	"position" smallint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "treatment_records" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"device_id" uuid NOT NULL,
	"doctor_id" uuid,
	"patient_id" uuid,
	"user_name" text NOT NULL,
	"treatment_device" text NOT NULL,
	"treatment_plan" text NOT NULL,
	"treatment_start_time" timestamp with time zone,
	"treatment_end_time" timestamp with time zone,
	"treatment_duration" double precision,
	"treatment_energy" double precision,
	"total_energy_output" double precision,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "app_updates" ADD CONSTRAINT "app_updates_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "doctors" ADD CONSTRAINT "doctors_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_doctor_id_doctors_id_fk" FOREIGN KEY ("doctor_id") REFERENCES "public"."doctors"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "technicians" ADD CONSTRAINT "technicians_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_images" ADD CONSTRAINT "treatment_images_treatment_id_treatment_records_id_fk" FOREIGN KEY ("treatment_id") REFERENCES "public"."treatment_records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_records" ADD CONSTRAINT "treatment_records_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_records" ADD CONSTRAINT "treatment_records_doctor_id_doctors_id_fk" FOREIGN KEY ("doctor_id") REFERENCES "public"."doctors"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_records" ADD CONSTRAINT "treatment_records_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "app_updates_app_version_idx" ON "app_updates" USING btree ("app_name","version_code");--> statement-breakpoint
CREATE INDEX "app_updates_created_at_idx" ON "app_updates" USING btree ("created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_machine_number_lower_idx" ON "devices" USING btree (lower("machine_number"));--> statement-breakpoint
CREATE UNIQUE INDEX "devices_serial_number_lower_idx" ON "devices" USING btree (lower("serial_number"));--> statement-breakpoint
CREATE INDEX "devices_search_trgm_idx" ON "devices" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "devices_created_at_id_idx" ON "devices" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "devices_machine_number_id_idx" ON "devices" USING btree ("machine_number","id");--> statement-breakpoint
CREATE INDEX "devices_serial_number_id_idx" ON "devices" USING btree ("serial_number","id");--> statement-breakpoint
CREATE INDEX "devices_location_id_idx" ON "devices" USING btree ("location","id");--> statement-breakpoint
CREATE INDEX "devices_city_id_idx" ON "devices" USING btree ("city","id");--> statement-breakpoint
CREATE INDEX "devices_country_id_idx" ON "devices" USING btree ("country","id");--> statement-breakpoint
CREATE INDEX "devices_status_id_idx" ON "devices" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "devices_subscription_status_id_idx" ON "devices" USING btree ("subscription_status","id");--> statement-breakpoint
CREATE INDEX "doctors_device_id_create_time_idx" ON "doctors" USING btree ("device_id","create_time","id");--> statement-breakpoint
CREATE INDEX "patients_device_id_create_time_idx" ON "patients" USING btree ("device_id","create_time","id");--> statement-breakpoint
CREATE INDEX "patients_doctor_id_create_time_idx" ON "patients" USING btree ("doctor_id","create_time","id");--> statement-breakpoint
CREATE INDEX "technicians_device_id_create_time_idx" ON "technicians" USING btree ("device_id","create_time","id");--> statement-breakpoint
CREATE INDEX "treatment_images_treatment_id_idx" ON "treatment_images" USING btree ("treatment_id","position");--> statement-breakpoint
CREATE INDEX "treatment_records_device_id_created_at_idx" ON "treatment_records" USING btree ("device_id","created_at","id");--> statement-breakpoint
CREATE INDEX "treatment_records_doctor_id_created_at_idx" ON "treatment_records" USING btree ("doctor_id","created_at","id");--> statement-breakpoint
CREATE INDEX "treatment_records_patient_id_created_at_idx" ON "treatment_records" USING btree ("patient_id","created_at","id");