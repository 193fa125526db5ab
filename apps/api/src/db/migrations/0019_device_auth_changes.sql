-- Every change that can end or alter a machine's credential (revoked, deleted, its device deleted or
-- renumbered) is announced on the channel device_auth_changed with the device's id, so each API
-- instance drops what it holds in its credential cache (decision 038). The notice goes out at commit.
CREATE OR REPLACE FUNCTION notify_device_auth_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'devices' THEN
    PERFORM pg_notify('device_auth_changed', OLD.id::text);
  ELSE
    PERFORM pg_notify('device_auth_changed', OLD.device_id::text);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER device_credentials_auth_changed AFTER UPDATE OR DELETE ON device_credentials
  FOR EACH ROW EXECUTE FUNCTION notify_device_auth_changed();
--> statement-breakpoint
CREATE TRIGGER devices_auth_deleted AFTER DELETE ON devices
  FOR EACH ROW EXECUTE FUNCTION notify_device_auth_changed();
--> statement-breakpoint
CREATE TRIGGER devices_auth_renumbered AFTER UPDATE OF machine_number, serial_number ON devices
  FOR EACH ROW WHEN (OLD.machine_number IS DISTINCT FROM NEW.machine_number
    OR OLD.serial_number IS DISTINCT FROM NEW.serial_number)
  EXECUTE FUNCTION notify_device_auth_changed();
