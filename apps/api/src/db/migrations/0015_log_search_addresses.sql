CREATE INDEX "access_logs_address_created_idx" ON "access_logs" USING btree ("location","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
-- Addresses join the dictionary (decision 007): one counter per client address.
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
    UNION ALL
    SELECT 'email', user_email, count(*) FROM changed_rows WHERE user_email IS NOT NULL GROUP BY user_email
    UNION ALL
    SELECT 'resource', resource, count(*) FROM changed_rows GROUP BY resource
    UNION ALL
    SELECT 'address', location, count(*) FROM changed_rows WHERE location IS NOT NULL GROUP BY location
  ) s
  WHERE s.n > 0
  ORDER BY s.scope, s.key
  ON CONFLICT (log_kind, scope, key) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END
$$;
--> statement-breakpoint
INSERT INTO log_counters (log_kind, scope, key, n)
SELECT 'access', 'address', location, count(*) FROM access_logs WHERE location IS NOT NULL GROUP BY location
UNION ALL
SELECT 'error', 'address', location, count(*) FROM error_logs WHERE location IS NOT NULL GROUP BY location
ON CONFLICT (log_kind, scope, key) DO UPDATE SET n = excluded.n;
