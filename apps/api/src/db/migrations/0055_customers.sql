CREATE TABLE "customers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"country" text NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"billing_email" text DEFAULT '' NOT NULL,
	"tax_id" text DEFAULT '' NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"require_mfa" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_text" text GENERATED ALWAYS AS (lower("customers"."name" || ' ' || "customers"."country" || ' ' || "customers"."billing_email" || ' ' || "customers"."tax_id")) STORED NOT NULL,
	CONSTRAINT "customers_name_not_blank" CHECK (length(trim("customers"."name")) > 0)
);
--> statement-breakpoint
CREATE TABLE "machine_assignments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"device_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"from_at" timestamp with time zone NOT NULL,
	"until_at" timestamp with time zone,
	"reason" text DEFAULT '' NOT NULL,
	"end_reason" text,
	"assigned_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "machine_assignments_until_after_from" CHECK ("machine_assignments"."until_at" is null or "machine_assignments"."until_at" > "machine_assignments"."from_at")
);
--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "customer_id" uuid;--> statement-breakpoint
ALTER TABLE "doctors" ADD COLUMN "customer_id" uuid;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "customer_id" uuid;--> statement-breakpoint
ALTER TABLE "technicians" ADD COLUMN "customer_id" uuid;--> statement-breakpoint
ALTER TABLE "access_logs" ADD COLUMN "customer_id" uuid;--> statement-breakpoint
ALTER TABLE "error_logs" ADD COLUMN "customer_id" uuid;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "customer_id" uuid;--> statement-breakpoint
ALTER TABLE "treatment_records" ADD COLUMN "customer_id" uuid;--> statement-breakpoint
ALTER TABLE "machine_assignments" ADD CONSTRAINT "machine_assignments_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "machine_assignments" ADD CONSTRAINT "machine_assignments_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "machine_assignments" ADD CONSTRAINT "machine_assignments_assigned_by_users_id_fk" FOREIGN KEY ("assigned_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "customers_name_lower_idx" ON "customers" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "customers_search_trgm_idx" ON "customers" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "customers_name_id_idx" ON "customers" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "customers_country_id_idx" ON "customers" USING btree ("country","id");--> statement-breakpoint
CREATE INDEX "customers_created_at_id_idx" ON "customers" USING btree ("created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "machine_assignments_open_idx" ON "machine_assignments" USING btree ("device_id") WHERE "machine_assignments"."until_at" is null;--> statement-breakpoint
CREATE INDEX "machine_assignments_device_from_idx" ON "machine_assignments" USING btree ("device_id","from_at");--> statement-breakpoint
CREATE INDEX "machine_assignments_customer_from_idx" ON "machine_assignments" USING btree ("customer_id","from_at");--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "doctors" ADD CONSTRAINT "doctors_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "technicians" ADD CONSTRAINT "technicians_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_records" ADD CONSTRAINT "treatment_records_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "devices_customer_id_id_idx" ON "devices" USING btree ("customer_id","id");--> statement-breakpoint
CREATE INDEX "doctors_customer_id_create_time_idx" ON "doctors" USING btree ("customer_id","create_time","id");--> statement-breakpoint
CREATE INDEX "patients_customer_id_create_time_idx" ON "patients" USING btree ("customer_id","create_time","id");--> statement-breakpoint
CREATE INDEX "technicians_customer_id_create_time_idx" ON "technicians" USING btree ("customer_id","create_time","id");--> statement-breakpoint
CREATE INDEX "access_logs_customer_created_idx" ON "access_logs" USING btree ("customer_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "access_logs"."customer_id" is not null;--> statement-breakpoint
CREATE INDEX "error_logs_customer_created_idx" ON "error_logs" USING btree ("customer_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "error_logs"."customer_id" is not null;--> statement-breakpoint
CREATE INDEX "subscriptions_customer_id_idx" ON "subscriptions" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "treatment_records_customer_id_treated_at_idx" ON "treatment_records" USING btree ("customer_id","treated_at","id");--> statement-breakpoint
-- Ownership over time (issue 39 item 2, docs/decisions/087). Every record a machine sends belongs to
-- the customer that held the machine when the record was made (its own time: a treatment's
-- treated_at, a device user's create_time, a log row's created_at), whenever it arrives: offline
-- sync can deliver a record made before a move after it. The database stamps it here, so no write
-- path can forget it; the period that covers the time is one probe of machine_assignments'
-- (device_id, from_at) index. Rows written before this migration keep no customer (there was none).
CREATE FUNCTION machine_customer_at(device uuid, at timestamptz) RETURNS uuid
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT a.customer_id FROM machine_assignments a
  WHERE a.device_id = device AND a.from_at <= at AND (a.until_at IS NULL OR a.until_at > at)
  ORDER BY a.from_at DESC LIMIT 1
$$;
--> statement-breakpoint
-- Treatments, doctors, patients and technicians: always from their machine and time (a value the
-- insert gave is replaced). TG_ARGV[0]: 'treatment' (treated_at) or 'person' (create_time).
CREATE FUNCTION stamp_record_customer() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_ARGV[0] = 'treatment' THEN
    NEW.customer_id := machine_customer_at(NEW.device_id, coalesce(NEW.treatment_start_time, NEW.created_at));
  ELSE
    NEW.customer_id := machine_customer_at(NEW.device_id, coalesce(NEW.create_time, now()));
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER customer_stamp BEFORE INSERT OR UPDATE OF device_id, treatment_start_time, created_at
  ON treatment_records FOR EACH ROW EXECUTE FUNCTION stamp_record_customer('treatment');
--> statement-breakpoint
CREATE TRIGGER customer_stamp BEFORE INSERT OR UPDATE OF device_id, create_time
  ON doctors FOR EACH ROW EXECUTE FUNCTION stamp_record_customer('person');
--> statement-breakpoint
CREATE TRIGGER customer_stamp BEFORE INSERT OR UPDATE OF device_id, create_time
  ON patients FOR EACH ROW EXECUTE FUNCTION stamp_record_customer('person');
--> statement-breakpoint
CREATE TRIGGER customer_stamp BEFORE INSERT OR UPDATE OF device_id, create_time
  ON technicians FOR EACH ROW EXECUTE FUNCTION stamp_record_customer('person');
--> statement-breakpoint
-- Log rows: a row that names a machine and no customer gets the machine's holder at created_at. A
-- row the API wrote about a customer (a console write) names it already. Named to fire before the
-- hash chain's zz_ trigger (BEFORE triggers fire by name); customer_id is not in the chain's text.
CREATE FUNCTION stamp_log_customer() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.customer_id IS NULL AND NEW.machine_number IS NOT NULL THEN
    NEW.customer_id := (SELECT machine_customer_at(d.id, NEW.created_at) FROM devices d
      WHERE d.machine_number = NEW.machine_number LIMIT 1);
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER customer_stamp BEFORE INSERT ON access_logs
  FOR EACH ROW EXECUTE FUNCTION stamp_log_customer();
--> statement-breakpoint
CREATE TRIGGER customer_stamp BEFORE INSERT ON error_logs
  FOR EACH ROW EXECUTE FUNCTION stamp_log_customer();
