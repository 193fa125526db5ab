import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { legalHolds } from '#api/db/schema/retention.ts';
import { addDevice } from '#api/test/device-fixtures.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import { aPatient, aTreatment, before, idsIn, retentionOf } from './retention-test-helpers.ts';

/*
 * Health data's retention (decision 086), on PGlite and PostgreSQL with the test clock: treatment
 * records and patients go exactly when their machine's country's period is past (10 years by
 * default, the Netherlands 15, Poland 20), a day either side, and never under a legal hold.
 */

describe('health data past its period', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('removes each country’s treatments and patients a day past its period, keeps those a day inside and those held', async () => {
    const db = t.database.db;
    const now = t.clock.now;
    const countries = { Germany: 10, Netherlands: 15, Poland: 20 } as const;
    const gone: string[] = [];
    const kept: string[] = [];
    const gonePatients: string[] = [];
    const keptPatients: string[] = [];
    for (const [country, years] of Object.entries(countries)) {
      const { deviceId } = await addDevice(t, { country });
      gone.push(await aTreatment(db, deviceId, before(now, years, 1)));
      kept.push(await aTreatment(db, deviceId, before(now, years, -1)));
      gonePatients.push(await aPatient(db, deviceId, before(now, years, 1)));
      keptPatients.push(await aPatient(db, deviceId, before(now, years, -1)));
      // An old patient with a treatment still kept stays with it.
      const withTreatment = await aPatient(db, deviceId, before(now, years, 400));
      kept.push(await aTreatment(db, deviceId, before(now, years, -1), withTreatment));
      keptPatients.push(withTreatment);
      // An old patient whose every treatment is past goes with them, in the same run.
      const allPast = await aPatient(db, deviceId, before(now, years, 400));
      gone.push(await aTreatment(db, deviceId, before(now, years, 2), allPast));
      gonePatients.push(allPast);
    }
    // Held: a patient (with their treatment), and a machine (all its patients and treatments).
    const { deviceId: heldMachine } = await addDevice(t, { country: 'Germany' });
    const onHeldMachine = await aPatient(db, heldMachine, before(now, 30));
    kept.push(await aTreatment(db, heldMachine, before(now, 30), onHeldMachine));
    keptPatients.push(onHeldMachine);
    const { deviceId: other } = await addDevice(t, { country: 'Poland' });
    const heldPatient = await aPatient(db, other, before(now, 30));
    kept.push(await aTreatment(db, other, before(now, 30), heldPatient));
    keptPatients.push(heldPatient);
    const placed = { placedAt: now, placedByEmail: 'admin@example.com', reason: 'Claim 12' };
    await db.insert(legalHolds).values([
      { ...placed, subjectKind: 'device', subjectId: heldMachine, subjectLabel: 'Machine' },
      { ...placed, subjectKind: 'patient', subjectId: heldPatient, subjectLabel: 'Patient' },
    ]);

    const removed = await retentionOf(t).run();

    expect(removed).toMatchObject({ treatmentRecords: gone.length, patientData: gonePatients.length });
    expect(await idsIn(db, 'treatment_records', [...gone, ...kept])).toEqual(new Set(kept));
    expect(await idsIn(db, 'patients', [...gonePatients, ...keptPatients])).toEqual(new Set(keptPatients));
    expect(await retentionOf(t).run()).toMatchObject({ treatmentRecords: 0, patientData: 0 });
  });

  it('removes what a lifted hold kept, at the next run', async () => {
    const db = t.database.db;
    const { deviceId } = await addDevice(t, { country: 'Germany' });
    const patient = await aPatient(db, deviceId, before(t.clock.now, 11));
    const treatment = await aTreatment(db, deviceId, before(t.clock.now, 11), patient);
    await db.insert(legalHolds).values({
      subjectKind: 'patient',
      subjectId: patient,
      subjectLabel: 'Patient',
      reason: 'Claim 13',
      placedAt: t.clock.now,
      placedByEmail: 'admin@example.com',
      liftedAt: t.clock.now,
      liftedByEmail: 'admin@example.com',
      liftReason: 'Settled',
    });
    expect(await retentionOf(t).run()).toMatchObject({ treatmentRecords: 1, patientData: 1 });
    expect(await idsIn(db, 'treatment_records', [treatment])).toEqual(new Set());
    expect(await idsIn(db, 'patients', [patient])).toEqual(new Set());
  });

  it('two runs at once remove each row once between them', async () => {
    const db = t.database.db;
    const { deviceId } = await addDevice(t, { country: 'Netherlands' });
    const ids = [];
    for (let i = 0; i < 12; i++) ids.push(await aTreatment(db, deviceId, before(t.clock.now, 16, i)));
    const [a, b] = await Promise.all([retentionOf(t, 5).run(), retentionOf(t, 5).run()]);
    expect(a.treatmentRecords + b.treatmentRecords).toBe(12);
    expect(await idsIn(db, 'treatment_records', ids)).toEqual(new Set());
  });
});
