CREATE TABLE "device_app_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"device_id" uuid NOT NULL,
	"version_code" integer NOT NULL,
	"version_name" text,
	"first_seen_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "app_updates" ADD COLUMN "package_name" text;--> statement-breakpoint
ALTER TABLE "device_app_versions" ADD CONSTRAINT "device_app_versions_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_app_versions_device_id_idx" ON "device_app_versions" USING btree ("device_id","first_seen_at","id");--> statement-breakpoint
-- Hand-written from here. A machine's version history gets a row each time
-- devices.app_version_code takes a new value, whoever writes it (the batched check-in UPDATE, the
-- demo data, a fix by hand). A row trigger with a WHEN clause: the check-in write touches every
-- calling machine each second, the condition costs next to nothing, and only a real change runs
-- the function (a statement trigger's transition tables would copy every updated row instead).
CREATE OR REPLACE FUNCTION device_app_versions_record() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO device_app_versions (device_id, version_code, version_name, first_seen_at)
  VALUES (NEW.id, NEW.app_version_code, NEW.app_version_name, coalesce(NEW.last_seen_at, now()));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER devices_app_version_changed AFTER UPDATE OF app_version_code ON devices
  FOR EACH ROW WHEN (NEW.app_version_code IS NOT NULL
    AND NEW.app_version_code IS DISTINCT FROM OLD.app_version_code)
  EXECUTE FUNCTION device_app_versions_record();
--> statement-breakpoint
CREATE TRIGGER devices_app_version_inserted AFTER INSERT ON devices
  FOR EACH ROW WHEN (NEW.app_version_code IS NOT NULL)
  EXECUTE FUNCTION device_app_versions_record();
--> statement-breakpoint
-- What each machine runs today opens its history. When it first ran it is not known; its last
-- check-in is the one sighting on record.
INSERT INTO device_app_versions (device_id, version_code, version_name, first_seen_at)
SELECT id, app_version_code, app_version_name, coalesce(last_seen_at, now())
FROM devices WHERE app_version_code IS NOT NULL;
