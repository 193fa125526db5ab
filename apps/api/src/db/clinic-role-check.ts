import type { ExecuteSql } from './job-queue-schema.ts';

/**
 * Refuses to start on a PostgreSQL role that has the privileges of console_clinic (decision 090).
 * The clinics' policy is restrictive and applies to every role that has console_clinic's privileges,
 * so an API role that inherits it would see none of the supplier's rows: every list empty, sign-in
 * refused. The API's role must be a member (to take the role per transaction) without inheriting it:
 * `ALTER ROLE console_app NOINHERIT` (or, on PostgreSQL 16 and later, `GRANT console_clinic TO
 * console_app WITH INHERIT FALSE`). A superuser skips row-level security and is let through (the
 * tests run as one; production must not, decision 013).
 */
export async function refuseInheritedClinicRole(executeSql: ExecuteSql) {
  const { rows } = await executeSql(
    `select r.rolname as role, r.rolsuper as superuser,
       pg_has_role(current_user, 'console_clinic', 'USAGE') as inherits
     from pg_roles r where r.rolname = current_user`,
  );
  const me = rows[0] as { role: string; superuser: boolean; inherits: boolean } | undefined;
  if (me && !me.superuser && me.inherits)
    throw new Error(
      `The database role ${me.role} inherits the privileges of console_clinic, so the clinics' row-level ` +
        `security would hide every row from the API. Make it a member without inheriting: ` +
        `ALTER ROLE ${me.role} NOINHERIT (decision 090).`,
    );
}
