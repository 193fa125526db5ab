-- Row-level security for the clinics (issue 39 item 4, decision 090). A clinic's request runs its
-- queries in one transaction as the role console_clinic, with the transaction-local setting
-- app.customer_id naming its customer (lib/customer-scope.ts). On every table that holds a customer's
-- data the policies below let that role see and write only its customer's rows, so a query that
-- forgets its `where` still cannot reach another clinic's. Every other role (the supplier's API, the
-- owner) passes the supplier policy, a condition on the role alone that the planner decides once per
-- query, not per row. A table not put under customer_rows() is not granted to console_clinic at all:
-- a clinic request that reads it fails, it never leaks.
--
-- The role is the cluster's, so several databases on one server share it; creating it again is no
-- error. In production the API's role must be a member (decision 013's console_app):
-- GRANT console_clinic TO console_app. Superusers skip row-level security: the API must not run
-- as one in production (the tests do, and take the role like production does).
DO $$
BEGIN
  CREATE ROLE console_clinic NOLOGIN;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
  NULL;
END
$$;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO console_clinic;
--> statement-breakpoint
-- Puts a table under the clinics' row-level security: `clinic_rows` is the condition, on the table's
-- own columns, that a row is the clinic's; the current customer is customer_scope(). The clinic role
-- may read the rows; a write a clinic makes needs its own GRANT, and the same condition checks it.
CREATE FUNCTION customer_scope() RETURNS uuid LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT nullif(current_setting('app.customer_id', true), '')::uuid
$$;
--> statement-breakpoint
CREATE FUNCTION customer_rows(tbl regclass, clinic_rows text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', tbl);
  EXECUTE format('CREATE POLICY supplier_rows ON %s USING (current_user <> %L) WITH CHECK (current_user <> %L)',
    tbl, 'console_clinic', 'console_clinic');
  EXECUTE format('CREATE POLICY clinic_rows ON %s TO console_clinic USING (%s) WITH CHECK (%s)',
    tbl, clinic_rows, clinic_rows);
  EXECUTE format('GRANT SELECT ON %s TO console_clinic', tbl);
END
$$;
--> statement-breakpoint
SELECT customer_rows('customers', 'id = customer_scope()');
--> statement-breakpoint
-- A machine is the clinic's while it holds it; the records it made stay with the clinic that held it
-- when they were made (customer_id, stamped at insert: migration 0055).
SELECT customer_rows('devices', 'customer_id = customer_scope()');
--> statement-breakpoint
SELECT customer_rows('machine_assignments', 'customer_id = customer_scope()');
--> statement-breakpoint
SELECT customer_rows('treatment_records', 'customer_id = customer_scope()');
--> statement-breakpoint
SELECT customer_rows('treatment_images',
  'EXISTS (SELECT 1 FROM treatment_records r WHERE r.id = treatment_id AND r.customer_id = customer_scope())');
--> statement-breakpoint
SELECT customer_rows('patients', 'customer_id = customer_scope()');
--> statement-breakpoint
SELECT customer_rows('doctors', 'customer_id = customer_scope()');
--> statement-breakpoint
SELECT customer_rows('technicians', 'customer_id = customer_scope()');
--> statement-breakpoint
SELECT customer_rows('access_logs', 'customer_id = customer_scope()');
--> statement-breakpoint
SELECT customer_rows('error_logs', 'customer_id = customer_scope()');
--> statement-breakpoint
SELECT customer_rows('subscriptions', 'customer_id = customer_scope()');
--> statement-breakpoint
SELECT customer_rows('subscription_payments',
  'EXISTS (SELECT 1 FROM subscriptions s WHERE s.id = subscription_id AND s.customer_id = customer_scope())');
--> statement-breakpoint
SELECT customer_rows('subscription_events',
  'EXISTS (SELECT 1 FROM subscriptions s WHERE s.id = subscription_id AND s.customer_id = customer_scope())');
--> statement-breakpoint
-- A clinic's own users and its invitations (decision 088).
SELECT customer_rows('users', 'customer_id = customer_scope()');
--> statement-breakpoint
SELECT customer_rows('clinic_invitations', 'customer_id = customer_scope()');
--> statement-breakpoint
-- The two fixed clinic roles are every clinic's: a clinic may read those, never the supplier's roles.
SELECT customer_rows('roles', 'type = ''clinic''');
