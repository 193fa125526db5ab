import { sql } from 'drizzle-orm';
import type { Db } from '#api/db/client.ts';

/*
 * Row-level security for a clinic's requests (issue 39 item 4, decision 090). The database, not the
 * handler, keeps one clinic's rows from another: a clinic request's queries run in one transaction
 * as the role console_clinic with the transaction-local setting app.customer_id, and the policies of
 * migration 0059 show that role only its customer's rows (a table without a policy is not granted to
 * it at all). The supplier's own requests never take the role, so their policy is true for them.
 */

/** The role a clinic request's transaction takes (migration 0059 creates it). */
export const clinicRole = 'console_clinic';

/**
 * Runs `fn` in a transaction scoped to one customer: every query on `tx` sees and writes only that
 * customer's rows, whatever its `where` says. PGlite and PostgreSQL alike (PGlite has roles too).
 */
export function withCustomerScope<T>(db: Db, customerId: string, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('app.customer_id', ${customerId}, true)`);
    await tx.execute(sql.raw(`set local role ${clinicRole}`));
    return fn(tx as unknown as Db);
  });
}
