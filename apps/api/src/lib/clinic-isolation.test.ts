import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerPaths } from '@app/contract/customers-texts';
import { rowsOf } from '#api/db/rows-of.ts';
import { addDevice, adminToken } from '#api/test/device-fixtures.ts';
import { createCustomer, signInClinicUser } from '#api/test/clinic-users.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';

/*
 * Isolation between clinics, route by route (issue 39 item 4, decision 090): every clinic route,
 * called as a user of clinic A, shows nothing of clinic B (its name, ids, machines, patients, users),
 * whatever the search, sort or page asks; a route given one of B's ids answers exactly as for an id
 * that does not exist (no oracle), and changes nothing of B's. The supplier's admins still see both.
 * New clinic routes are walked as they are registered: nothing here lists them.
 */

type Clinic = {
  customerId: string;
  name: string;
  token: string;
  userId: string;
  email: string;
  deviceId: string;
  machineNumber: string;
  patient: string;
};

describe('every clinic route, as clinic A, against clinic B', () => {
  let t: TestApp;
  let admin: string;
  const clinics: Clinic[] = [];
  beforeAll(async () => {
    t = await createTestApp();
    admin = await adminToken(t);
    for (const tag of ['Alpha', 'Bravo']) {
      const customer = await createCustomer(t, { name: `Isolation ${tag} ${randomUUID().slice(0, 6)}` });
      const user = await signInClinicUser(t, admin, { customerId: customer.id });
      const { deviceId, machineNumber } = await addDevice(t);
      const assigned = await t.injectAs(admin, {
        method: 'POST',
        url: customerPaths.machineAssignment(deviceId),
        payload: { customerId: customer.id, from: new Date(t.clock.now.getTime() - 3_600_000).toISOString() },
      });
      expect(assigned.statusCode, assigned.body).toBeLessThan(300);
      const patient = `Patient${tag}${randomUUID().slice(0, 6)}`;
      await t.database.db
        .execute(sql`insert into treatment_records (device_id, user_name, treatment_device, treatment_plan)
        values (${deviceId}, ${patient}, 'HB-1', 'Plan')`);
      await t.database.db.execute(sql`insert into patients (device_id, patientname, email)
        values (${deviceId}, ${patient}, ${`${patient.toLowerCase()}@patients.test`})`);
      clinics.push({
        ...user,
        customerId: customer.id,
        name: customer.name,
        deviceId,
        machineNumber,
        patient,
      });
    }
  });
  afterAll(() => t.close());

  const clinicRoutes = () =>
    t.app.registeredRoutes.filter((r) => r.access === 'clinic' && r.url.startsWith('/api/'));
  const secretsOf = (c: Clinic) => [
    c.customerId,
    c.name,
    c.userId,
    c.email,
    c.deviceId,
    c.machineNumber,
    c.patient,
  ];
  const idsOf = (c: Clinic) => [c.customerId, c.userId, c.deviceId];
  const leaks = (body: string, c: Clinic) =>
    secretsOf(c).filter((s) => body.toLowerCase().includes(s.toLowerCase()));
  /** B's rows as the supplier sees them: a write through A must leave them as they were. */
  const bRows = async (b: Clinic) =>
    rowsOf(
      await t.database.db.execute(sql`
        select (select row_to_json(c)::text from customers c where c.id = ${b.customerId}) as customer,
          (select row_to_json(u)::text from users u where u.id = ${b.userId}) as usr,
          (select row_to_json(d)::text from devices d where d.id = ${b.deviceId}) as device,
          (select count(*)::int from treatment_records r where r.customer_id = ${b.customerId}) as treatments`),
    );

  it('has clinic routes to walk', () => {
    expect(clinicRoutes().length).toBeGreaterThan(3);
  });

  it('reads: no route shows B’s data to A, whatever its search, sort and page', async () => {
    const [a, b] = clinics as [Clinic, Clinic];
    const queries = [
      '',
      `?search=${encodeURIComponent(b.patient)}`,
      `?search=${encodeURIComponent(b.name)}`,
      '?sort=-createdAt&page=1',
      '?currentPage=1&pageSize=100',
    ];
    const found: string[] = [];
    for (const route of clinicRoutes().filter((r) => r.method === 'GET' && !r.url.includes(':'))) {
      for (const query of queries) {
        const res = await t.injectAs(a.token, { method: 'GET', url: `${route.url}${query}` });
        expect(res.statusCode, `${route.url}${query}: ${res.body}`).toBeLessThan(500);
        const leaked = leaks(res.body, b);
        if (leaked.length) found.push(`${route.url}${query}: ${leaked.join(', ')}`);
      }
    }
    expect(found).toEqual([]);
  });

  it('ids: a route given B’s id answers as for an id that does not exist, and changes nothing of B’s', async () => {
    const [a, b] = clinics as [Clinic, Clinic];
    const before = await bRows(b);
    const differs: string[] = [];
    for (const route of clinicRoutes().filter((r) => r.url.includes(':'))) {
      for (const id of idsOf(b)) {
        const call = (value: string) =>
          t.injectAs(a.token, {
            method: route.method as 'GET',
            url: route.url.replace(/:[A-Za-z]+/g, value),
            ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
          });
        const [theirs, nobodys] = [await call(id), await call(randomUUID())];
        expect(theirs.statusCode, `${route.method} ${route.url}: ${theirs.body}`).toBeLessThan(500);
        const strip = (body: string) => body.replaceAll(/"requestId":"[^"]*"/g, '');
        if (theirs.statusCode !== nobodys.statusCode || strip(theirs.body) !== strip(nobodys.body))
          differs.push(
            `${route.method} ${route.url} with B's ${id}: ${theirs.statusCode} against ${nobodys.statusCode}`,
          );
        const leaked = leaks(theirs.body, b).filter((s) => s !== id);
        if (leaked.length) differs.push(`${route.method} ${route.url}: shows ${leaked.join(', ')}`);
      }
    }
    expect(differs).toEqual([]);
    expect(await bRows(b)).toEqual(before);
  });

  it('the supplier’s admins still see both clinics and their machines', async () => {
    const [a, b] = clinics as [Clinic, Clinic];
    for (const c of [a, b]) {
      const res = await t.injectAs(admin, { method: 'GET', url: customerPaths.customer(c.customerId) });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).toContain(c.name);
      const machines = await t.injectAs(admin, { method: 'GET', url: customerPaths.machines(c.customerId) });
      expect(machines.body).toContain(c.machineNumber);
    }
  });
});
