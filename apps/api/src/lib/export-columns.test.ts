import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Patient } from '@app/contract/device-users';
import type { AccessLog, ErrorLog } from '@app/contract/logs';
import { maskName } from '@app/contract/masking';
import { apiPaths } from '@app/contract/paths';
import { subscriptionStatusLabel, type Subscription } from '@app/contract/subscriptions';
import type { Treatment } from '@app/contract/treatments';
import type { User } from '@app/contract/users';
import { devices, patients } from '#api/db/schema/devices.ts';
import { treatmentRecords } from '#api/db/schema/treatments.ts';
import { accessLogs, errorLogs } from '#api/db/schema/logs.ts';
import { csvCells } from '#api/test/csv-file.ts';
import { signedInApp } from '#api/test/signed-in-app.ts';
import type { TestApp } from '#api/test/test-app.ts';
import { machineWithSerial } from '../modules/subscriptions/subscription-test-requests.ts';

/*
 * Issue 17 item 3: each list's Export CSV writes the columns the admin shows, in their order, keyed
 * as the console's table columns (lib/export-columns.ts); a column the list does not export is a 400
 * naming the field and the keys it takes. Each file is compared with the list's own answer.
 */

let t: TestApp;
let token: string;
beforeAll(async () => {
  ({ t, token } = await signedInApp());
  const db = t.database.db;
  const roles = (await get(apiPaths.rolesAll)).json().data.roles as { _id: string; type: string }[];
  const appRoleId = roles.find((r) => r.type === 'app')!._id;
  for (const n of [1, 2, 3]) {
    t.clock.advance(1000);
    const res = await t.injectAs(token, {
      method: 'POST',
      url: apiPaths.users,
      payload: {
        firstName: 'Col',
        lastName: `Umn ${n}`,
        userName: `cols_${n}`,
        email: `cols_${n}@example.com`,
        phone: `012345678${n}`,
        roleId: appRoleId,
        password: 'Secret-pass1',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
  }
  for (const n of [1, 2, 3]) {
    t.clock.advance(1000);
    await machineWithSerial(t, `SN-C${n}`);
    const res = await t.injectAs(token, {
      method: 'POST',
      url: apiPaths.subscriptionAdd,
      payload: {
        fullName: `Buyer ${n}`,
        email: `buyer${n}@example.com`,
        machineSerialNumber: `SN-C${n}`,
        amount: 10 + n,
        isRecurring: false,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
  }
  const logs = [0, 1, 2, 3].map((i) => ({
    createdAt: new Date(Date.UTC(2024, 2, 1, i)),
    userId: 'cols-user',
    userEmail: 'cols@example.com',
    resource: `GET /api/v1/admin/machine/cols-${i}`,
    location: `10.0.0.${i}`,
  }));
  await db.insert(accessLogs).values(logs);
  await db
    .insert(errorLogs)
    .values(logs.map((l, i) => ({ ...l, functionName: `fn${i}`, statusCode: 500, message: `boom ${i}` })));
  const [device] = await db
    .insert(devices)
    .values({
      machineNumber: 'COLS-1',
      serialNumber: 'COLS-S1',
      location: 'Clinic',
      latitude: 1,
      longitude: 2,
      city: 'Rome',
      country: 'Italy',
      address: 'Via 1',
    })
    .returning({ id: devices.id });
  await db.insert(patients).values(
    [1, 2].map((i) => ({
      deviceId: device!.id,
      patientname: `Pat ${i}`,
      email: `pat${i}@example.com`,
      phone: `555123456${i}`,
      createTime: new Date(Date.UTC(2026, 9, 1, i)),
    })),
  );
  await db.insert(treatmentRecords).values(
    [0, 1, 2].map((i) => ({
      deviceId: device!.id,
      userName: `Patient ${i}`,
      treatmentDevice: 'ShockWave S1',
      treatmentPlan: `Plan ${i}`,
      treatmentStartTime: new Date(Date.UTC(2026, 9, 1, i)),
      treatmentDuration: 10 + i,
      totalEnergyOutput: i + 0.5,
      createdAt: new Date(Date.UTC(2026, 9, 1, i)),
    })),
  );
});
afterAll(() => t.close());

const get = (url: string, query: Record<string, string> = {}) =>
  t.injectAs(token, { method: 'GET', url, query });
/** The export's header and rows as cells. */
async function exported(url: string, query: Record<string, string>) {
  const res = await get(url, query);
  expect(res.statusCode, res.body).toBe(200);
  const [header, ...rows] = csvCells(res.body);
  return { header, rows };
}
const text = (v: string | number | null | undefined) => (v === null || v === undefined ? '' : String(v));

describe('Export CSV in the columns shown, in their order', () => {
  it('users: a reordered subset, as the list answers it', async () => {
    const { header, rows } = await exported(apiPaths.usersExport, {
      search: 'cols_',
      columns: 'role,email,userName',
    });
    expect(header).toEqual(['Role', 'Email', 'User Name']);
    const listed = (await get(apiPaths.usersAll, { search: 'cols_' })).json().data.users as User[];
    expect(listed).toHaveLength(3);
    expect(rows).toEqual(listed.map((u) => [text(u.role?.roleName), u.email, u.userName]));
  });

  it('subscriptions: a reordered subset, as the list answers it', async () => {
    const { header, rows } = await exported(apiPaths.subscriptionExport, {
      status: '1',
      columns: 'status,amount,fullName',
    });
    expect(header).toEqual(['Status', 'Amount ($)', 'Name']);
    const listed = (await get(apiPaths.subscriptionsAll, { status: '1', limit: '100' })).json().data
      .subscriptions as Subscription[];
    expect(listed.length).toBeGreaterThanOrEqual(3);
    expect(rows).toEqual(
      listed.map((s) => [subscriptionStatusLabel(s.status), s.amount.toFixed(2), s.fullName]),
    );
  });

  it('access and error logs: each its own columns, reordered, as the lists answer them', async () => {
    const access = await exported(apiPaths.accessLogsExport, {
      userId: 'cols-user',
      columns: 'location,time,resource',
    });
    expect(access.header).toEqual(['Location', 'Time', 'Resource']);
    const accessListed = (await get(apiPaths.accessLogsAll, { userId: 'cols-user' })).json().data
      .logs as AccessLog[];
    expect(accessListed).toHaveLength(4);
    expect(access.rows).toEqual(accessListed.map((l) => [text(l.location), l.time, l.resource]));

    const errors = await exported(apiPaths.errorLogsExport, {
      userId: 'cols-user',
      columns: 'message,functionName,time',
    });
    expect(errors.header).toEqual(['Message', 'Function Name', 'Time']);
    const errorsListed = (await get(apiPaths.errorLogsAll, { userId: 'cols-user' })).json().data
      .logs as ErrorLog[];
    expect(errors.rows).toEqual(errorsListed.map((l) => [text(l.message), text(l.functionName), l.utcTime]));
  });

  it("treatments: a reordered subset, the patient's name masked unless revealed (decision 058)", async () => {
    const query = { machineNumber: 'COLS-1', columns: 'totalEnergyOutput,userName,treatmentPlan' };
    const listed = (await get(apiPaths.treatmentsAll, { machineNumber: 'COLS-1' })).json().data
      .data as Treatment[];
    expect(listed).toHaveLength(3);
    const masked = await exported(apiPaths.treatmentsExport, query);
    expect(masked.header).toEqual(['Total Energy Output (J)', 'User Name', 'Treatment Plan']);
    expect(masked.rows).toEqual(
      listed.map((r) => [text(r.totalEnergyOutput), maskName(r.userName), r.treatmentPlan]),
    );
    const revealed = await exported(apiPaths.treatmentsExport, { ...query, reveal: 'true' });
    expect(revealed.rows).toEqual(
      listed.map((r) => [text(r.totalEnergyOutput), r.userName, r.treatmentPlan]),
    );
  });

  it('patients: a reordered subset of contact data, masked as the list masks it (decision 058)', async () => {
    const { header, rows } = await exported(apiPaths.patientsExport, {
      machineNumber: 'COLS-1',
      columns: 'phone,email,patientname',
    });
    expect(header).toEqual(['Phone Number', 'Email', 'Patient Name']);
    const listed = (await get(apiPaths.patientsAll, { machineNumber: 'COLS-1' })).json().data
      .patientData as Patient[];
    expect(listed).toHaveLength(2);
    expect(rows).toEqual(listed.map((p) => [text(p.phone), text(p.email), p.patientname]));
    expect(rows.flat().join()).not.toMatch(/555123456|pat\d@/);
  });

  it('keeps the default columns when none are named', async () => {
    const { header } = await exported(apiPaths.usersExport, { search: 'cols_' });
    expect(header).toEqual(['User Name', 'Email', 'Phone', 'Role', 'Created At']);
  });

  it('names an unknown column, and the keys it takes, in a 400', async () => {
    for (const [url, query, keys] of [
      [apiPaths.usersExport, 'userName,passwordHash', 'userName, email, phonenumber, role, createdAt'],
      [apiPaths.subscriptionExport, 'fullName,link', 'fullName, email, machineSerialNumber'],
      [apiPaths.accessLogsExport, 'time,functionName', 'time, userEmail, resource, words'],
      [apiPaths.errorLogsExport, 'time,words', 'time, userEmail, resource, functionName'],
      [apiPaths.treatmentsExport, 'userName,doctorId', 'userName, treatmentDevice'],
      [apiPaths.rolesExport, 'permissions', 'roleName'],
    ] as const) {
      const res = await get(url, { columns: query });
      expect(res.statusCode, `${url} ${query}`).toBe(400);
      expect(res.json().msg).toContain(`columns must be among ${keys}`);
    }
  });
});
