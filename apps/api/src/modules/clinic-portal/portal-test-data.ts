import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { customerPaths } from '@app/contract/customers-texts';
import { rowsOf } from '#api/db/rows-of.ts';
import { signInClinicUser } from '#api/test/clinic-users.ts';
import { addDevice } from '#api/test/device-fixtures.ts';
import type { TestApp } from '#api/test/test-app.ts';

/*
 * Two clinics for the portal's tests: clinic A held machine `moved` and still holds `kept`; `moved`
 * went to clinic B ten days ago, which also holds `own`. Treatments are made on each machine while
 * it was at A and at B, so the stamps (decision 087) decide whose they are. Each clinic has a paid
 * monthly plan with one demo payment.
 */

const dayMs = 86_400_000;
type Machine = { deviceId: string; machineNumber: string; serialNumber: string };
export type PortalClinic = Awaited<ReturnType<typeof signInClinicUser>> & {
  subscriptionId: string;
  paymentId: string;
};

async function assign(t: TestApp, admin: string, deviceId: string, customerId: string, from: Date) {
  const res = await t.injectAs(admin, {
    method: 'POST',
    url: customerPaths.machineAssignment(deviceId),
    payload: { customerId, from: from.toISOString() },
  });
  if (res.statusCode >= 300) throw new Error(`assign: ${res.statusCode} ${res.body}`);
}

/** `count` treatments of `minutes` each on the machine, `daysAgo` days before the test clock. */
export async function treat(
  t: TestApp,
  deviceId: string,
  daysAgo: number,
  count: number,
  over: { minutes?: number; doctorId?: string | null } = {},
) {
  const at = new Date(t.clock.now.getTime() - daysAgo * dayMs);
  for (let i = 0; i < count; i++)
    await t.database.db.execute(sql`insert into treatment_records
      (device_id, doctor_id, user_name, treatment_device, treatment_plan, treatment_start_time, treatment_duration)
      values (${deviceId}, ${over.doctorId ?? null}, ${`Patient ${randomBytes(3).toString('hex')}`}, 'HB-1', 'Plan',
        ${new Date(at.getTime() + i * 60_000).toISOString()}::timestamptz, ${over.minutes ?? 10})`);
}

async function paidPlan(t: TestApp, customerId: string, machine: Machine) {
  const id = `sub-portal-${randomBytes(6).toString('hex')}`;
  const paymentId = `pay-portal-${randomBytes(6).toString('hex')}`;
  const now = t.clock.now.getTime();
  await t.database.db.execute(sql`insert into subscriptions (id, full_name, email, machine_serial_number,
      amount_cents, is_recurring, plan_type, status, expired_at, paid_at, provider, provider_ref, device_id,
      customer_id, paid_through)
    values (${id}, 'Clinic Owner', 'owner@clinic.test', ${machine.serialNumber}, 4900, true, 'month', 2,
      ${new Date(now + 20 * dayMs).toISOString()}::timestamptz, ${new Date(now - 10 * dayMs).toISOString()}::timestamptz,
      'demo', ${`demo_sub_${id}`}, ${machine.deviceId}, ${customerId}, ${new Date(now + 20 * dayMs).toISOString()}::timestamptz)`);
  await t.database.db.execute(sql`insert into subscription_payments
      (id, subscription_id, provider, provider_ref, amount_cents, paid_at, period_end)
    values (${paymentId}, ${id}, 'demo', ${`demo_pi_${paymentId}`}, 4900,
      ${new Date(now - 10 * dayMs).toISOString()}::timestamptz, ${new Date(now + 20 * dayMs).toISOString()}::timestamptz)`);
  return { subscriptionId: id, paymentId };
}

export async function twoClinics(t: TestApp) {
  const admin = await t.login();
  const a = await signInClinicUser(t, admin);
  const b = await signInClinicUser(t, admin);
  const moved = await addDevice(t);
  const kept = await addDevice(t);
  const own = await addDevice(t);
  const now = t.clock.now.getTime();
  await assign(t, admin, moved.deviceId, a.customerId, new Date(now - 60 * dayMs));
  await assign(t, admin, kept.deviceId, a.customerId, new Date(now - 60 * dayMs));
  await assign(t, admin, own.deviceId, b.customerId, new Date(now - 60 * dayMs));
  await assign(t, admin, moved.deviceId, b.customerId, new Date(now - 10 * dayMs));
  // A doctor registered on `kept` while A holds it: A's to name.
  const [doctor] = rowsOf<{ id: string }>(
    await t.database.db.execute(sql`insert into doctors (device_id, user_name, email)
      values (${kept.deviceId}, 'Dr. Kept', 'kept@clinic.test') returning id`),
  );
  await treat(t, moved.deviceId, 30, 3); // A's, kept after the move
  await treat(t, moved.deviceId, 5, 4, { minutes: 20 }); // B's
  await treat(t, kept.deviceId, 3, 2, { doctorId: doctor!.id }); // A's
  await treat(t, own.deviceId, 2, 5); // B's
  return {
    admin,
    a: { ...a, ...(await paidPlan(t, a.customerId, kept)) } as PortalClinic,
    b: { ...b, ...(await paidPlan(t, b.customerId, own)) } as PortalClinic,
    machines: { moved, kept, own },
    doctorId: doctor!.id,
  };
}
