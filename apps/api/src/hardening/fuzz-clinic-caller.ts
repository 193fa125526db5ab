import { sql } from 'drizzle-orm';
import { clinicUserPaths } from '@app/contract/clinic-users-texts';
import { createCustomer, signInClinicUser } from '../test/clinic-users.ts';
import type { TestApp } from '../test/test-app.ts';

/*
 * The clinic portal's routes (/api/v1/clinic/..., decision 088) are fuzzed as a clinic's manager: the
 * "admin" caller of those routes is a clinic user whose customer holds two of the demo machines, so
 * the portal's lists and figures have rows to page, sort and export under row-level security
 * (decision 090). A case may end the session (sign-out) or remove the user; the harness signs a new
 * manager in.
 */
export async function createClinicCaller(t: TestApp, adminToken: () => Promise<string>) {
  const customer = await createCustomer(t, { name: 'Fuzz clinic' });
  await t.database.db.execute(sql`
    with picked as (select id from devices where customer_id is null order by machine_number limit 2),
    assigned as (insert into machine_assignments (device_id, customer_id, from_at)
      select id, ${customer.id}, now() - interval '400 days' from picked returning device_id)
    update devices set customer_id = ${customer.id} where id in (select device_id from assigned)`);
  // Their records so far become the clinic's, as if it had held them from the start.
  for (const table of ['treatment_records', 'patients', 'doctors'])
    await t.database.db.execute(
      sql`update ${sql.identifier(table)} set customer_id = ${customer.id}
        where device_id in (select id from devices where customer_id = ${customer.id})`,
    );
  let session = await signInClinicUser(t, await adminToken(), { customerId: customer.id });
  return {
    customerId: customer.id,
    isClinicRoute: (url: string) =>
      url.startsWith('/api/v1/clinic/') && !url.startsWith('/api/v1/clinic/invitation/'),
    token: () => session.token,
    /** After a 401 on a clinic route: a new manager when the session really ended. */
    async restore(): Promise<boolean> {
      const me = await t.injectAs(session.token, { method: 'GET', url: clinicUserPaths.me });
      if (me.statusCode !== 401) return false;
      session = await signInClinicUser(t, await adminToken(), { customerId: customer.id });
      return true;
    },
  };
}
