CREATE TABLE "treatment_daily_counts" (
	"day" date PRIMARY KEY NOT NULL,
	"n" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "devices_last_seen_at_idx" ON "devices" USING btree ("last_seen_at");--> statement-breakpoint
-- Treatments per UTC day for the dashboard (decision 050): one small upsert per statement, fed by its
-- transition table, like table_row_counts (0010). A day's row may reach 0 and stay: 30 rows a month.
CREATE OR REPLACE FUNCTION treatment_daily_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM treatment_daily_counts;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO treatment_daily_counts (day, n)
      SELECT (created_at AT TIME ZONE 'UTC')::date, count(*) FROM changed_rows GROUP BY 1 ORDER BY 1
    ON CONFLICT (day) DO UPDATE SET n = treatment_daily_counts.n + excluded.n;
  ELSE
    UPDATE treatment_daily_counts t SET n = t.n - d.n
      FROM (SELECT (created_at AT TIME ZONE 'UTC')::date AS day, count(*) AS n FROM changed_rows GROUP BY 1) d
      WHERE t.day = d.day;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
INSERT INTO treatment_daily_counts (day, n)
  SELECT (created_at AT TIME ZONE 'UTC')::date, count(*) FROM treatment_records GROUP BY 1;
--> statement-breakpoint
CREATE TRIGGER treatment_daily_counts_insert AFTER INSERT ON treatment_records
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION treatment_daily_counts_apply();
--> statement-breakpoint
CREATE TRIGGER treatment_daily_counts_delete AFTER DELETE ON treatment_records
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION treatment_daily_counts_apply();
--> statement-breakpoint
CREATE TRIGGER treatment_daily_counts_truncate AFTER TRUNCATE ON treatment_records
  FOR EACH STATEMENT EXECUTE FUNCTION treatment_daily_counts_apply();
