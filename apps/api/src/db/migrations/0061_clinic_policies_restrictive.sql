-- The clinics' policies of 0059, made so the planner can use them (decision 090, measured by
-- bench:clinics). Permissive policies are ORed: the clinic's condition stood beside the supplier's
-- `current_user <> 'console_clinic'`, so a clinic's query carried `(current_user <> ...) OR
-- customer_id = customer_scope()`, which no index serves (a clinic's figures scanned every
-- treatment), and the supplier's queries carried the same OR as a filter on every row (the treatment
-- list took five times as long with the policies on). Now:
--   supplier_rows: permissive, for every role, `true`: no condition at all for the supplier's API;
--   clinic_rows: RESTRICTIVE, for console_clinic only: ANDed with the above, so a clinic's query
--   carries exactly `customer_id = customer_scope()`, which the customer_id indexes serve.
-- Who sees what is unchanged: every other role every row, console_clinic only its customer's.
DO $$
DECLARE
  p record;
BEGIN
  FOR p IN
    SELECT c.oid::regclass AS tbl, pol.qual, pol.with_check
    FROM pg_policies pol JOIN pg_class c ON c.relname = pol.tablename
    JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = pol.schemaname
    WHERE pol.schemaname = 'public' AND pol.policyname = 'clinic_rows'
  LOOP
    EXECUTE format('DROP POLICY supplier_rows ON %s', p.tbl);
    EXECUTE format('DROP POLICY clinic_rows ON %s', p.tbl);
    EXECUTE format('CREATE POLICY supplier_rows ON %s USING (true) WITH CHECK (true)', p.tbl);
    EXECUTE format('CREATE POLICY clinic_rows ON %s AS RESTRICTIVE TO console_clinic USING (%s) WITH CHECK (%s)',
      p.tbl, p.qual, coalesce(p.with_check, p.qual));
  END LOOP;
END
$$;
--> statement-breakpoint
-- Tables put under the policies from now on get them the same way.
CREATE OR REPLACE FUNCTION customer_rows(tbl regclass, clinic_rows text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', tbl);
  EXECUTE format('CREATE POLICY supplier_rows ON %s USING (true) WITH CHECK (true)', tbl);
  EXECUTE format('CREATE POLICY clinic_rows ON %s AS RESTRICTIVE TO console_clinic USING (%s) WITH CHECK (%s)',
    tbl, clinic_rows, clinic_rows);
  EXECUTE format('GRANT SELECT ON %s TO console_clinic', tbl);
END
$$;
