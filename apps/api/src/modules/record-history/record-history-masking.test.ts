import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordHistoryPaths, type HistoryEntry } from '@app/contract/record-history';
import { accessLogs } from '#api/db/schema/logs.ts';
import { doctors, patients } from '#api/db/schema/devices.ts';
import { addDevice } from '#api/test/device-fixtures.ts';
import { signInWithPermissions } from '#api/test/admin-with-permissions.ts';
import { signedInApp } from '#api/test/signed-in-app.ts';
import type { TestApp } from '#api/test/test-app.ts';

/*
 * Decision 045 in the history (081): a patient's or doctor's contact data is masked in its change
 * history for every reader; an admin with patients.reveal sees it only by revealing, with a reason
 * the audit trail keeps, never the values.
 */
let t: TestApp;
let admin: string;
let reader: string;
const ids = { doctor: '', patient: '' };
beforeAll(async () => {
  ({ t, token: admin } = await signedInApp());
  ({ token: reader } = await signInWithPermissions(t, admin, ['patients.view']));
  const { deviceId } = await addDevice(t);
  const db = t.database.db;
  const [doctor] = await db
    .insert(doctors)
    .values({ deviceId, userName: 'Dr. Vale', email: 'vale@clinic.test', phonenumber: '+47 1234 5678' })
    .returning({ id: doctors.id });
  const [patient] = await db
    .insert(patients)
    .values({ deviceId, patientname: 'Jane Roe', email: 'jane.roe@example.com', phone: '5551234567' })
    .returning({ id: patients.id });
  ids.doctor = doctor!.id;
  ids.patient = patient!.id;
  // The machine's app corrects them (a write of the system: no admin acts).
  await db
    .update(patients)
    .set({ email: 'jane.doe@example.com', phone: '5557654321', address: 'Elm St 4' })
    .where(eq(patients.id, ids.patient));
  await db.update(doctors).set({ address: 'Ward 9, Oslo' }).where(eq(doctors.id, ids.doctor));
});
afterAll(() => t.close());

const history = (token: string, url: string) => t.injectAs(token, { method: 'GET', url });
const entries = (res: { json: () => { data: { history: HistoryEntry[] } } }) => res.json().data.history;

describe("a patient's change history", () => {
  it('shows the contact data masked, for a reader and for an admin who may reveal', async () => {
    for (const token of [reader, admin]) {
      const res = await history(token, recordHistoryPaths.patient(ids.patient));
      expect(res.statusCode, res.body).toBe(200);
      const byField = Object.fromEntries(entries(res).map((e) => [e.field, e]));
      expect(byField.email).toMatchObject({
        oldValue: 'j•••@example.com',
        newValue: 'j•••@example.com',
        masked: true,
      });
      expect(byField.phone).toMatchObject({ oldValue: '••••••4567', newValue: '••••••4321', masked: true });
      expect(byField.address).toMatchObject({
        oldValue: null,
        newValue: '••••••',
        masked: true,
        actor: null,
      });
      expect(res.body).not.toContain('jane.');
      expect(res.body).not.toContain('Elm St');
    }
  });

  it('is revealed only with patients.reveal and a reason, which the audit trail keeps without the values', async () => {
    const url = recordHistoryPaths.patientReveal(ids.patient);
    const refused = await t.injectAs(reader, { method: 'POST', url, payload: { reason: 'Billing' } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().msg).toContain('patients.reveal');
    const noReason = await t.injectAs(admin, { method: 'POST', url, payload: {} });
    expect(noReason.statusCode).toBe(400);

    const res = await t.injectAs(admin, { method: 'POST', url, payload: { reason: 'Patient request' } });
    expect(res.statusCode, res.body).toBe(200);
    const email = entries(res).find((e) => e.field === 'email');
    expect(email).toMatchObject({
      oldValue: 'jane.roe@example.com',
      newValue: 'jane.doe@example.com',
      masked: false,
    });
    const rows = await t.database.db
      .select({ resource: accessLogs.resource })
      .from(accessLogs)
      .where(eq(accessLogs.recordId, ids.patient));
    const revealRow = rows.find((r) => r.resource.startsWith('REVEAL '));
    expect(revealRow?.resource).toBe(
      `REVEAL patient ${ids.patient}: email, phone, address (reason: history; Patient request)`,
    );
    expect(JSON.stringify(rows)).not.toContain('jane.');
  });

  it("is itself a look at the record, in the patient's access history", async () => {
    await history(reader, recordHistoryPaths.doctor(ids.doctor));
    const rows = await t.database.db
      .select({ resource: accessLogs.resource })
      .from(accessLogs)
      .where(eq(accessLogs.recordId, ids.doctor));
    expect(rows.map((r) => r.resource)).toContain(`VIEW doctor ${ids.doctor}`);
  });
});
