DROP INDEX "treatment_records_device_id_created_at_idx";--> statement-breakpoint
DROP INDEX "treatment_records_doctor_id_created_at_idx";--> statement-breakpoint
DROP INDEX "treatment_records_patient_id_created_at_idx";--> statement-breakpoint
ALTER TABLE "treatment_records" ADD COLUMN "treated_at" timestamp with time zone GENERATED ALWAYS AS (coalesce(treatment_start_time, created_at)) STORED;--> statement-breakpoint
CREATE INDEX "treatment_records_treated_at_id_idx" ON "treatment_records" USING btree ("treated_at","id");--> statement-breakpoint
CREATE INDEX "treatment_records_device_id_treated_at_idx" ON "treatment_records" USING btree ("device_id","treated_at","id");--> statement-breakpoint
CREATE INDEX "treatment_records_doctor_id_treated_at_idx" ON "treatment_records" USING btree ("doctor_id","treated_at","id");--> statement-breakpoint
CREATE INDEX "treatment_records_patient_id_treated_at_idx" ON "treatment_records" USING btree ("patient_id","treated_at","id");--> statement-breakpoint
-- The dashboard's treatments per UTC day count the day a treatment took place (treated_at, its start),
-- as the Treatment Records list's day range does, rather than the day its record was written
-- (issue 35): both must agree on "today".
CREATE OR REPLACE FUNCTION treatment_daily_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM treatment_daily_counts;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO treatment_daily_counts (day, n)
      SELECT (treated_at AT TIME ZONE 'UTC')::date, count(*) FROM changed_rows GROUP BY 1 ORDER BY 1
    ON CONFLICT (day) DO UPDATE SET n = treatment_daily_counts.n + excluded.n;
  ELSE
    UPDATE treatment_daily_counts t SET n = t.n - d.n
      FROM (SELECT (treated_at AT TIME ZONE 'UTC')::date AS day, count(*) AS n FROM changed_rows GROUP BY 1) d
      WHERE t.day = d.day;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DELETE FROM treatment_daily_counts;
--> statement-breakpoint
INSERT INTO treatment_daily_counts (day, n)
  SELECT (treated_at AT TIME ZONE 'UTC')::date, count(*) FROM treatment_records GROUP BY 1;
