import { eq, getTableColumns, sql } from 'drizzle-orm';
import type { Db } from '#api/db/client.ts';
import { customers } from '#api/db/schema/customers.ts';
import { devices } from '#api/db/schema/devices.ts';
import { subscriptions } from '#api/db/schema/subscriptions.ts';
import { BadRequestError } from '#api/lib/errors.ts';

/*
 * A subscription belongs to a customer as well as to a machine (issue 39 item 1, decision 087).
 */

const customerUnknown = 'customerId: no such customer';

/** The customer a new subscription is for: the one named, or else the machine's holder (or none). */
export async function customerOfSubscription(
  db: Db,
  deviceId: string,
  named: string | undefined,
): Promise<{ id: string; name: string } | null> {
  const [customer] = await db
    .select({ id: customers.id, name: customers.name })
    .from(customers)
    .where(
      named === undefined
        ? sql`${customers.id} = (select ${devices.customerId} from ${devices} where ${devices.id} = ${deviceId})`
        : eq(customers.id, named),
    );
  if (!customer && named !== undefined)
    throw new BadRequestError(customerUnknown, {
      errors: [{ path: 'customerId', message: customerUnknown }],
    });
  return customer ?? null;
}

/** A subscription's columns and its customer's name (one primary-key probe per row). */
export const subscriptionWithCustomer = {
  ...getTableColumns(subscriptions),
  customerName: sql<
    string | null
  >`(select ${customers.name} from ${customers} where ${customers.id} = ${subscriptions.customerId})`,
};

/** A customer's name, for one subscription's page. */
export async function customerNameOf(db: Db, customerId: string | null): Promise<string | null> {
  if (!customerId) return null;
  const [row] = await db.select({ name: customers.name }).from(customers).where(eq(customers.id, customerId));
  return row?.name ?? null;
}
