import { and, inArray, isNull } from 'drizzle-orm';
import { clinicPortalTexts } from '@app/contract/clinic-portal-texts';
import type { Db } from '#api/db/client.ts';
import { accessLogs } from '#api/db/schema/logs.ts';
import { users } from '#api/db/schema/users.ts';
import { withCustomerScope } from '#api/lib/customer-scope.ts';
import { createCustomerPieces } from '../customers/customer-pieces.ts';

/*
 * A clinic manager's view of their clinic's activity (issue 39 item 6): the audit rows that carry the
 * customer, as the supplier sees them on the customer's page, read in the clinic's row-level-security
 * scope (decision 090). The supplier's staff act on the clinic's records too (an assignment, a reveal):
 * those rows stay, so the clinic sees that its data was handled, but name the supplier, not the admin:
 * an admin's email is the supplier's to give. A person is the clinic's own when row-level security
 * lets the clinic read their user row; a machine's rows (those with the item id it sent) keep who
 * signed in on it, its doctors and technicians being the clinic's.
 */
export function createActivityService({ db, now }: { db: Db; now: () => Date }) {
  return {
    async list(customerId: string, page: { page: number; limit: number }) {
      return withCustomerScope(db, customerId, async (tx) => {
        const list = await createCustomerPieces({ db: tx, now }).activity(customerId, page);
        const ids = list.activity.map((a) => Number(a._id));
        // The console's rows: a machine's own rows carry the item id it sent (client_id).
        const consoleRows = new Set(
          ids.length === 0
            ? []
            : (
                await tx
                  .select({ id: accessLogs.id })
                  .from(accessLogs)
                  .where(and(inArray(accessLogs.id, ids), isNull(accessLogs.clientId)))
              ).map((r) => String(r.id)),
        );
        const people = [
          ...new Set(list.activity.filter((a) => consoleRows.has(a._id)).map((a) => a.userEmail)),
        ].filter((email): email is string => email !== null);
        const own = new Set(
          people.length === 0
            ? []
            : (await tx.select({ email: users.email }).from(users).where(inArray(users.email, people))).map(
                (u) => u.email,
              ),
        );
        const activity = list.activity.map((a) =>
          consoleRows.has(a._id) && a.userEmail !== null && !own.has(a.userEmail)
            ? { ...a, userEmail: clinicPortalTexts.supplierActor }
            : a,
        );
        return { ...list, activity };
      });
    },
  };
}
export type ActivityService = ReturnType<typeof createActivityService>;
