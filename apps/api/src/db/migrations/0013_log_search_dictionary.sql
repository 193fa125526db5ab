CREATE INDEX "access_logs_email_created_idx" ON "access_logs" USING btree ("user_email","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "access_logs_resource_created_idx" ON "access_logs" USING btree ("resource","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "log_counters_key_trgm_idx" ON "log_counters" USING gin ("key" gin_trgm_ops);--> statement-breakpoint
ALTER TABLE "access_logs" ADD CONSTRAINT "access_logs_location_is_address" CHECK ("access_logs"."location" ~ '^[0-9A-Fa-f:.]+$');--> statement-breakpoint
ALTER TABLE "error_logs" ADD CONSTRAINT "error_logs_location_is_address" CHECK ("error_logs"."location" ~ '^[0-9A-Fa-f:.]+$');--> statement-breakpoint
-- The counters also keep one row per email and per resource: the dictionary a search reads to
-- learn which values a term names (decision 007). Same function, two more scopes.
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
  ) s
  WHERE s.n > 0
  ORDER BY s.scope, s.key
  ON CONFLICT (log_kind, scope, key) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END
$$;
--> statement-breakpoint
INSERT INTO log_counters (log_kind, scope, key, n)
SELECT 'access', 'email', user_email, count(*) FROM access_logs WHERE user_email IS NOT NULL GROUP BY user_email
UNION ALL
SELECT 'access', 'resource', resource, count(*) FROM access_logs GROUP BY resource
UNION ALL
SELECT 'error', 'email', user_email, count(*) FROM error_logs WHERE user_email IS NOT NULL GROUP BY user_email
UNION ALL
SELECT 'error', 'resource', resource, count(*) FROM error_logs GROUP BY resource
ON CONFLICT (log_kind, scope, key) DO UPDATE SET n = excluded.n;
