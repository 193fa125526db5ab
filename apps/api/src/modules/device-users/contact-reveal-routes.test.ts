import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissionNames } from '@app/contract/permissions';
import { apiPaths } from '@app/contract/paths';
import { revealMessages } from '@app/contract/masking';
import { devices, doctors, patients } from '#api/db/schema/devices.ts';
import { signInWithPermissions } from '#api/test/admin-with-permissions.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';

/*
 * Decision 045: contact data of patients and doctors comes masked from the server in lists and
 * details, for every admin; a role with patients.reveal reveals one record with a reason, which
 * answers the values and leaves an audit row naming the fields and the reason (never the values);
 * the record's access history lists the views and reveals, for patients.reveal only.
 */

let t: TestApp;
let adminToken: string;
let maskedToken: string;
const ids = { doctor: '', patient: '' };

beforeAll(async () => {
  t = await createTestApp();
  adminToken = await t.login();
  ({ token: maskedToken } = await signInWithPermissions(
    t,
    adminToken,
    permissionNames.filter((p) => p !== 'patients.reveal'),
  ));
  const db = t.database.db;
  const [device] = await db
    .insert(devices)
    .values({
      machineNumber: 'MR-1',
      serialNumber: 'SR-1',
      location: 'Clinic',
      latitude: 1,
      longitude: 2,
      city: 'Oslo',
      country: 'Norway',
      address: 'Main St 1',
    })
    .returning({ id: devices.id });
  const [doctor] = await db
    .insert(doctors)
    .values({
      deviceId: device!.id,
      userName: 'Dr. Vale',
      email: 'vale@clinic.test',
      phonenumber: '+47 1234 5678',
      address: 'Ward 7, Oslo',
    })
    .returning({ id: doctors.id });
  const [patient] = await db
    .insert(patients)
    .values({
      deviceId: device!.id,
      doctorId: doctor!.id,
      patientname: 'Jane Roe',
      email: 'jane.roe@example.com',
      phone: '5551234567',
    })
    .returning({ id: patients.id });
  ids.doctor = doctor!.id;
  ids.patient = patient!.id;
});
afterAll(() => t.close());

const get = (token: string, url: string) => t.injectAs(token, { method: 'GET', url });
const reveal = (token: string, url: string, payload: unknown) =>
  t.injectAs(token, { method: 'POST', url, payload: payload as Record<string, unknown> });

describe('contact data in lists and details', () => {
  it('comes masked in the patient list and the patient detail, for every admin', async () => {
    for (const token of [maskedToken, adminToken]) {
      const list = (await get(token, `${apiPaths.patientsAll}?page=1&limit=10`)).json().data;
      const listed = list.patientData.find((p: { _id: string }) => p._id === ids.patient);
      expect(listed).toMatchObject({ email: 'j•••@example.com', phone: '••••••4567', contactMasked: true });
      const one = (await get(token, apiPaths.patient(ids.patient))).json().data;
      expect(one).toMatchObject({ email: 'j•••@example.com', phone: '••••••4567', contactMasked: true });
      expect(JSON.stringify(one) + JSON.stringify(list)).not.toContain('jane.roe');
    }
  });

  it('comes masked in the doctor list and detail, address included', async () => {
    const list = (await get(maskedToken, `${apiPaths.doctorsAll}?page=1&limit=10`)).json().data;
    const listed = list.data.find((d: { _id: string }) => d._id === ids.doctor);
    const masked = {
      email: 'v•••@clinic.test',
      phonenumber: '••••••5678',
      address: '••••••',
      contactMasked: true,
    };
    expect(listed).toMatchObject(masked);
    expect((await get(maskedToken, apiPaths.doctor(ids.doctor))).json().data).toMatchObject(masked);
  });

  it('cannot be revealed, nor the access history read: 403 naming patients.reveal', async () => {
    const refused = await reveal(maskedToken, apiPaths.patientReveal(ids.patient), { reason: 'Billing' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().msg).toContain('patients.reveal');
    const history = await get(maskedToken, apiPaths.patientAccessHistory(ids.patient));
    expect(history.statusCode).toBe(403);
  });
});

describe('an admin with patients.reveal', () => {
  it("reveals a patient's email and phone, unflagged", async () => {
    const res = await reveal(adminToken, apiPaths.patientReveal(ids.patient), { reason: 'Billing' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ email: 'jane.roe@example.com', phone: '5551234567' });
    expect(res.json().data.contactMasked).toBeUndefined();
  });

  it('reveals a record with a reason, and the audit row names the fields and the reason, not the values', async () => {
    const res = await reveal(adminToken, apiPaths.doctorReveal(ids.doctor), {
      reason: 'Other',
      note: 'Callback about a device fault',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ email: 'vale@clinic.test', address: 'Ward 7, Oslo' });
    await t.app.audit.flush();
    const logs = (await get(adminToken, `${apiPaths.accessLogsAll}?page=1&limit=50`)).json().data;
    const rows = JSON.stringify(logs);
    expect(rows).toContain(
      `REVEAL doctor ${ids.doctor}: email, phone, address (reason: Other: Callback about a device fault)`,
    );
    expect(rows).not.toContain('vale@clinic.test');
    expect(rows).not.toContain('Ward 7');
  });

  it('refuses a reveal without a reason, or Other without details, naming the field', async () => {
    const none = await reveal(adminToken, apiPaths.patientReveal(ids.patient), {});
    expect(none.statusCode).toBe(400);
    expect(none.json().msg).toContain('reason');
    const other = await reveal(adminToken, apiPaths.patientReveal(ids.patient), {
      reason: 'Other',
      note: ' ',
    });
    expect(other.statusCode).toBe(400);
    expect(other.json().msg).toContain(revealMessages.noteRequired);
    const unknown = await reveal(adminToken, apiPaths.patientReveal('00000000-0000-4000-8000-000000000000'), {
      reason: 'Billing',
    });
    expect(unknown.statusCode).toBe(404);
  });

  it("lists who viewed and who revealed a patient's record, newest first", async () => {
    await get(maskedToken, apiPaths.patient(ids.patient));
    await reveal(adminToken, apiPaths.patientReveal(ids.patient), { reason: 'Patient request' });
    await t.app.audit.flush();
    const res = await get(adminToken, `${apiPaths.patientAccessHistory(ids.patient)}?page=1&limit=10`);
    expect(res.statusCode).toBe(200);
    const { history, total } = res.json().data;
    expect(total).toBeGreaterThanOrEqual(3);
    expect(history[0]).toMatchObject({
      action: 'Revealed',
      userEmail: 'admin@example.com',
      detail: 'email, phone (reason: Patient request)',
    });
    expect(
      history.some(
        (h: { action: string; userEmail: string }) =>
          h.action === 'Viewed' && h.userEmail.startsWith('perm-'),
      ),
    ).toBe(true);
    expect(history.every((h: { location: string | null }) => h.location !== undefined)).toBe(true);
  });

  it('answers 404 for the access history of an unknown patient', async () => {
    const res = await get(adminToken, apiPaths.patientAccessHistory('00000000-0000-4000-8000-000000000000'));
    expect(res.statusCode).toBe(404);
  });
});
