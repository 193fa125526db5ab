ALTER TABLE "access_logs" ADD COLUMN "event" text;--> statement-breakpoint
ALTER TABLE "error_logs" ADD COLUMN "event" text;--> statement-breakpoint
-- The audit trail is append-only (docs/decisions/013). Whatever role writes, a row once inserted
-- cannot be changed or removed: UPDATE, DELETE and TRUNCATE raise. Only the tables' owner can get
-- past this, on purpose and visibly (ALTER TABLE ... DISABLE TRIGGER), e.g. for a retention job.
CREATE OR REPLACE FUNCTION audit_rows_are_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit rows are append-only: % on % is not allowed', TG_OP, TG_TABLE_NAME
    USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
CREATE TRIGGER access_logs_append_only BEFORE UPDATE OR DELETE ON access_logs
  FOR EACH ROW EXECUTE FUNCTION audit_rows_are_append_only();
--> statement-breakpoint
CREATE TRIGGER access_logs_no_truncate BEFORE TRUNCATE ON access_logs
  FOR EACH STATEMENT EXECUTE FUNCTION audit_rows_are_append_only();
--> statement-breakpoint
CREATE TRIGGER error_logs_append_only BEFORE UPDATE OR DELETE ON error_logs
  FOR EACH ROW EXECUTE FUNCTION audit_rows_are_append_only();
--> statement-breakpoint
CREATE TRIGGER error_logs_no_truncate BEFORE TRUNCATE ON error_logs
  FOR EACH STATEMENT EXECUTE FUNCTION audit_rows_are_append_only();
--> statement-breakpoint
-- Privileges as a second wall on PostgreSQL: no role but the owner keeps UPDATE, DELETE or TRUNCATE
-- on the log tables (an application role that was granted ALL keeps SELECT and INSERT only).
REVOKE UPDATE, DELETE, TRUNCATE ON access_logs, error_logs FROM PUBLIC;
--> statement-breakpoint
DO $$
DECLARE g record;
BEGIN
  FOR g IN
    SELECT DISTINCT p.grantee, p.table_name
    FROM information_schema.role_table_grants p
    JOIN pg_tables t ON t.tablename = p.table_name AND t.schemaname = p.table_schema
    WHERE p.table_schema = current_schema()
      AND p.table_name IN ('access_logs', 'error_logs')
      AND p.privilege_type IN ('UPDATE', 'DELETE', 'TRUNCATE')
      AND p.grantee <> t.tableowner
      AND p.grantee <> 'PUBLIC'
  LOOP
    EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON %I FROM %I', g.table_name, g.grantee);
  END LOOP;
END
$$;
