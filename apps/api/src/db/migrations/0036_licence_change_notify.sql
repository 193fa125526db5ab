-- A machine's licence version (devices.licence_version, decision 068) is announced on the channel
-- licence_changed as '<device id>:<version>' whenever it changes, whatever changed it (the ledger's
-- statement, a sweep, an operator in psql), so each API instance can answer the heartbeat's
-- licenceVersion from memory (modules/device-api/licence-versions.ts). A row trigger with a
-- condition, as for app versions (0020): the check-in flushes update devices every second and only
-- a real change runs the function. The notice goes out at commit.
CREATE OR REPLACE FUNCTION notify_licence_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('licence_changed', NEW.id::text || ':' || NEW.licence_version::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER devices_licence_changed AFTER UPDATE OF licence_version ON devices
  FOR EACH ROW WHEN (OLD.licence_version IS DISTINCT FROM NEW.licence_version)
  EXECUTE FUNCTION notify_licence_changed();
--> statement-breakpoint
-- Any change to the signing keys (the first one made, a rotation) is announced on
-- licence_keys_changed, so every instance signs with the new key and publishes it at once
-- (modules/licence-tokens/licence-keys.ts); they also re-read the keys every minute.
CREATE OR REPLACE FUNCTION notify_licence_keys_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('licence_keys_changed', '');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER licence_signing_keys_changed AFTER INSERT OR UPDATE OR DELETE ON licence_signing_keys
  FOR EACH STATEMENT EXECUTE FUNCTION notify_licence_keys_changed();
