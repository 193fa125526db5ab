-- Keeps log_counters in step with access_logs and error_logs whoever writes them (the API's audit
-- writer, the demo data, a bulk COPY): one statement-level trigger per table and operation, fed
-- by the statement's transition table, so a batch of 500 rows costs one small upsert.
CREATE OR REPLACE FUNCTION log_counters_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  kind text := TG_ARGV[0];
  sign int := CASE WHEN TG_OP = 'DELETE' THEN -1 ELSE 1 END;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM log_counters WHERE log_kind = kind;
    RETURN NULL;
  END IF;
  -- Fixed order (scope, key) so concurrent writers lock counter rows in the same order.
  INSERT INTO log_counters AS c (log_kind, scope, key, n)
  SELECT kind, s.scope, s.key, sign * s.n
  FROM (
    SELECT 'all'::text AS scope, ''::text AS key, count(*) AS n FROM changed_rows
    UNION ALL
    SELECT 'user', user_id, count(*) FROM changed_rows WHERE user_id IS NOT NULL GROUP BY user_id
    UNION ALL
    SELECT 'machine', machine_number, count(*) FROM changed_rows WHERE machine_number IS NOT NULL GROUP BY machine_number
  ) s
  WHERE s.n > 0
  ORDER BY s.scope, s.key
  ON CONFLICT (log_kind, scope, key) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER access_logs_count_insert AFTER INSERT ON access_logs
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION log_counters_apply('access');
--> statement-breakpoint
CREATE TRIGGER access_logs_count_delete AFTER DELETE ON access_logs
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION log_counters_apply('access');
--> statement-breakpoint
CREATE TRIGGER access_logs_count_truncate AFTER TRUNCATE ON access_logs
  FOR EACH STATEMENT EXECUTE FUNCTION log_counters_apply('access');
--> statement-breakpoint
CREATE TRIGGER error_logs_count_insert AFTER INSERT ON error_logs
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION log_counters_apply('error');
--> statement-breakpoint
CREATE TRIGGER error_logs_count_delete AFTER DELETE ON error_logs
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION log_counters_apply('error');
--> statement-breakpoint
CREATE TRIGGER error_logs_count_truncate AFTER TRUNCATE ON error_logs
  FOR EACH STATEMENT EXECUTE FUNCTION log_counters_apply('error');
