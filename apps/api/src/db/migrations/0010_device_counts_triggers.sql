-- table_row_counts['devices'] follows every insert, delete and truncate of devices: one small update
-- per statement (fed by its transition table), so a bulk insert of 10,000 rows costs one update.
CREATE OR REPLACE FUNCTION table_row_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE table_row_counts SET n = 0 WHERE table_name = TG_TABLE_NAME;
  ELSIF TG_OP = 'INSERT' THEN
    UPDATE table_row_counts SET n = n + (SELECT count(*) FROM changed_rows) WHERE table_name = TG_TABLE_NAME;
  ELSE
    UPDATE table_row_counts SET n = n - (SELECT count(*) FROM changed_rows) WHERE table_name = TG_TABLE_NAME;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
INSERT INTO table_row_counts (table_name, n) SELECT 'devices', count(*) FROM devices
ON CONFLICT (table_name) DO UPDATE SET n = excluded.n;
--> statement-breakpoint
CREATE TRIGGER devices_count_insert AFTER INSERT ON devices
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION table_row_counts_apply();
--> statement-breakpoint
CREATE TRIGGER devices_count_delete AFTER DELETE ON devices
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION table_row_counts_apply();
--> statement-breakpoint
CREATE TRIGGER devices_count_truncate AFTER TRUNCATE ON devices
  FOR EACH STATEMENT EXECUTE FUNCTION table_row_counts_apply();
