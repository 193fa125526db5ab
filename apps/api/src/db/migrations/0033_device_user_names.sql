CREATE TABLE "device_user_names" (
	"device_id" uuid NOT NULL,
	"name_key" text NOT NULL,
	"doctor_id" uuid,
	"technician_id" uuid,
	CONSTRAINT "device_user_names_device_id_user_name_pk" PRIMARY KEY("device_id","name_key"),
	CONSTRAINT "device_user_names_one_person" CHECK (num_nonnulls("device_user_names"."doctor_id", "device_user_names"."technician_id") = 1)
);
--> statement-breakpoint
DROP INDEX "doctors_device_id_user_name_lower_idx";--> statement-breakpoint
ALTER TABLE "device_user_names" ADD CONSTRAINT "device_user_names_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_user_names" ADD CONSTRAINT "device_user_names_doctor_id_doctors_id_fk" FOREIGN KEY ("doctor_id") REFERENCES "public"."doctors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_user_names" ADD CONSTRAINT "device_user_names_technician_id_technicians_id_fk" FOREIGN KEY ("technician_id") REFERENCES "public"."technicians"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "device_user_names_doctor_id_idx" ON "device_user_names" USING btree ("doctor_id");--> statement-breakpoint
CREATE UNIQUE INDEX "device_user_names_technician_id_idx" ON "device_user_names" USING btree ("technician_id");--> statement-breakpoint
-- Hand-written from here (issue 32): the triggers that keep device_user_names, and its backfill.
-- A machine's people sign in by user name: a doctor with a password (doctors.user_name), a
-- technician by their console account's name (users.user_name through technicians.account_id).
-- Before this, a doctor could be registered under a technician's name and sign-in found the
-- doctor first, locking the technician out of the machine. One row per (machine, lower(name))
-- makes a second person with that name a unique violation, whichever route or race writes it.
CREATE FUNCTION device_user_names_of_doctor() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM device_user_names WHERE doctor_id = OLD.id;
  END IF;
  IF NEW.password_hash IS NOT NULL THEN
    INSERT INTO device_user_names (device_id, name_key, doctor_id)
    VALUES (NEW.device_id, lower(NEW.user_name), NEW.id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A doctor without a password cannot sign in (demo data, records made elsewhere): no name held.
CREATE TRIGGER doctors_user_name_insert AFTER INSERT ON doctors
  FOR EACH ROW WHEN (NEW.password_hash IS NOT NULL) EXECUTE FUNCTION device_user_names_of_doctor();
--> statement-breakpoint
CREATE TRIGGER doctors_user_name_update AFTER UPDATE OF user_name, password_hash, device_id ON doctors
  FOR EACH ROW WHEN (
    OLD.user_name IS DISTINCT FROM NEW.user_name
    OR (OLD.password_hash IS NULL) <> (NEW.password_hash IS NULL)
    OR OLD.device_id IS DISTINCT FROM NEW.device_id
  ) EXECUTE FUNCTION device_user_names_of_doctor();
--> statement-breakpoint
CREATE FUNCTION device_user_names_of_technician() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM device_user_names WHERE technician_id = OLD.id;
  END IF;
  INSERT INTO device_user_names (device_id, name_key, technician_id)
  SELECT NEW.device_id, lower(u.user_name), NEW.id FROM users u WHERE u.id = NEW.account_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A technicians row without a console account cannot sign in (demo data): no name held.
CREATE TRIGGER technicians_user_name_insert AFTER INSERT ON technicians
  FOR EACH ROW WHEN (NEW.account_id IS NOT NULL) EXECUTE FUNCTION device_user_names_of_technician();
--> statement-breakpoint
CREATE TRIGGER technicians_user_name_update AFTER UPDATE OF account_id, device_id ON technicians
  FOR EACH ROW WHEN (
    OLD.account_id IS DISTINCT FROM NEW.account_id OR OLD.device_id IS DISTINCT FROM NEW.device_id
  ) EXECUTE FUNCTION device_user_names_of_technician();
--> statement-breakpoint
-- A console user renamed: the name follows on every machine they are assigned to (delete, then
-- insert, so a technician left out by the backfill below gets their new name if it is free). A
-- name a doctor of one of those machines holds fails the rename (23505 on the primary key, which
-- the user edit answers as "user name taken").
CREATE FUNCTION device_user_names_of_account() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM device_user_names n USING technicians t WHERE n.technician_id = t.id AND t.account_id = NEW.id;
  INSERT INTO device_user_names (device_id, name_key, technician_id)
  SELECT t.device_id, lower(NEW.user_name), t.id FROM technicians t WHERE t.account_id = NEW.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_user_name_update AFTER UPDATE OF user_name ON users
  FOR EACH ROW WHEN (lower(OLD.user_name) IS DISTINCT FROM lower(NEW.user_name))
  EXECUTE FUNCTION device_user_names_of_account();
--> statement-breakpoint
-- Backfill. An existing database may already hold the clash this table forbids: a doctor registered
-- under the name of a technician of the same machine (doctor with doctor and technician with
-- technician could not clash: the old doctors index, and unique console user names). The migration
-- must not fail on it, and renaming anyone's sign-in name behind their back is worse than the clash,
-- so the DOCTOR KEEPS THE NAME: sign-in found the doctor first, so the doctor is who signs in with
-- it today, and nobody loses access through this migration. The technician stays unable to sign in
-- on that machine under that name, as before, until an admin renames their account in User
-- Management (the rename trigger above then gives them the new name) or unassigns them there. Find
-- the technicians left out with:
--   SELECT t.id, t.device_id, u.user_name FROM technicians t JOIN users u ON u.id = t.account_id
--   WHERE NOT EXISTS (SELECT 1 FROM device_user_names n WHERE n.technician_id = t.id);
INSERT INTO device_user_names (device_id, name_key, doctor_id)
SELECT device_id, lower(user_name), id FROM doctors WHERE password_hash IS NOT NULL
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO device_user_names (device_id, name_key, technician_id)
SELECT t.device_id, lower(u.user_name), t.id FROM technicians t JOIN users u ON u.id = t.account_id
ON CONFLICT DO NOTHING;
