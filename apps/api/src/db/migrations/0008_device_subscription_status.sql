-- devices.subscription_status mirrors the status of the device's latest subscription (matched by
-- serial number, case-insensitively), so the device list sorts and pages by it through an index.
CREATE INDEX IF NOT EXISTS "subscriptions_lower_serial_created_at_idx" ON "subscriptions" (lower("machine_serial_number"), "created_at" DESC, "id" DESC);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION devices_refresh_subscription_status(serial text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE devices d SET subscription_status = (
    SELECT s.status FROM subscriptions s
    WHERE lower(s.machine_serial_number) = lower(serial)
    ORDER BY s.created_at DESC, s.id DESC LIMIT 1
  )
  WHERE lower(d.serial_number) = lower(serial);
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION subscriptions_sync_device_status() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM devices_refresh_subscription_status(OLD.machine_serial_number);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM devices_refresh_subscription_status(NEW.machine_serial_number);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER subscriptions_sync_device_status
AFTER INSERT OR DELETE OR UPDATE OF status, machine_serial_number, created_at ON subscriptions
FOR EACH ROW EXECUTE FUNCTION subscriptions_sync_device_status();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION devices_take_subscription_status() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A device without subscriptions keeps the value it was given (bulk benchmark data sets it).
  NEW.subscription_status := COALESCE((
    SELECT s.status FROM subscriptions s
    WHERE lower(s.machine_serial_number) = lower(NEW.serial_number)
    ORDER BY s.created_at DESC, s.id DESC LIMIT 1
  ), NEW.subscription_status);
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER devices_take_subscription_status
BEFORE INSERT OR UPDATE OF serial_number ON devices
FOR EACH ROW EXECUTE FUNCTION devices_take_subscription_status();
--> statement-breakpoint
UPDATE devices d SET subscription_status = (
  SELECT s.status FROM subscriptions s
  WHERE lower(s.machine_serial_number) = lower(d.serial_number)
  ORDER BY s.created_at DESC, s.id DESC LIMIT 1
);
