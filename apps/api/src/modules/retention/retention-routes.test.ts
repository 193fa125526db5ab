import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissionMessages } from '@app/contract/permissions';
import { retentionMessages } from '@app/contract/retention';
import { retentionPaths, retentionRecordTypes } from '@app/contract/retention-texts';
import { signInWithPermissions } from '#api/test/admin-with-permissions.ts';
import { addDevice } from '#api/test/device-fixtures.ts';
import { createTestApp, testAdmin, type TestApp } from '#api/test/test-app.ts';
import { aPatient, aTreatment, before, idsIn } from './retention-test-helpers.ts';

/*
 * The retention routes (decision 086): the schedule and runs for every admin; legal holds placed,
 * listed and lifted with retention.manage, each with a reason; every bad input a 400 naming its field.
 */

let t: TestApp;
let token: string;
let reader: string;
const unknownId = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  t = await createTestApp({ HEALTH_RETENTION_COUNTRIES: 'Netherlands=15, Poland=20, Germany=12' });
  token = await t.login();
  reader = (await signInWithPermissions(t, token, ['devices.view'])).token;
});
afterAll(() => t.close());

const get = (as: string, url: string) => t.injectAs(as, { method: 'GET', url });
const post = (as: string, url: string, payload: object) => t.injectAs(as, { method: 'POST', url, payload });
const fieldOf = (body: string) =>
  (JSON.parse(body) as { data?: { errors?: { path: string }[] } }).data?.errors?.[0]?.path;

describe('the schedule and the runs', () => {
  it('shows every record type, the health periods with their country overrides, to any admin', async () => {
    const res = await get(reader, retentionPaths.schedule);
    expect(res.statusCode, res.body).toBe(200);
    const schedule = res.json().data;
    expect(schedule.entries.map((e: { recordType: string }) => e.recordType)).toEqual([
      ...retentionRecordTypes,
    ]);
    expect(schedule.healthMinimumYears).toBe(5);
    expect(schedule.entries[0]).toMatchObject({
      recordType: 'treatmentRecords',
      health: true,
      action: 'delete',
      period: { years: 10, days: null },
      countryOverrides: [
        { country: 'Netherlands', years: 15 },
        { country: 'Poland', years: 20 },
        { country: 'Germany', years: 12 },
      ],
    });
    expect(schedule.entries.find((e: { recordType: string }) => e.recordType === 'logs').period).toEqual({
      days: 2_192,
      years: null,
    });
  });

  it('lists each run, newest first, with its counts; the job runs with the app’s settings', async () => {
    const { deviceId } = await addDevice(t, { country: 'Germany' });
    const kept = await aTreatment(t.database.db, deviceId, before(t.clock.now, 11)); // Germany: 12 here
    const gone = await aTreatment(t.database.db, deviceId, before(t.clock.now, 12, 1));
    await t.app.runJobsNow();
    expect(await idsIn(t.database.db, 'treatment_records', [kept, gone])).toEqual(new Set([kept]));
    const res = await get(reader, `${retentionPaths.runs}?limit=5`);
    expect(res.statusCode, res.body).toBe(200);
    const { runs, total } = res.json().data;
    expect(total).toBe(1);
    expect(runs[0].removed).toMatchObject({ treatmentRecords: 1, patientData: 0 });
    expect(fieldOf((await get(reader, `${retentionPaths.runs}?limit=0`)).body)).toBe('limit');
  });
});

describe('legal holds', () => {
  it('are placed on a patient with a reason, keep it from retention, and are lifted with a reason, once', async () => {
    const { deviceId, machineNumber } = await addDevice(t, { country: 'Poland' });
    const patient = await aPatient(t.database.db, deviceId, before(t.clock.now, 25));
    const placed = await post(token, retentionPaths.holds, {
      subjectKind: 'patient',
      subjectId: patient,
      reason: 'Litigation hold, case 42',
    });
    expect(placed.statusCode, placed.body).toBe(201);
    const hold = placed.json().data;
    expect(hold).toMatchObject({
      subjectLabel: `Patient on ${machineNumber}`,
      placedByEmail: testAdmin.email,
      liftedAt: null,
    });
    const again = await post(token, retentionPaths.holds, {
      subjectKind: 'patient',
      subjectId: patient,
      reason: 'x',
    });
    expect([again.statusCode, again.json().msg]).toEqual([400, retentionMessages.alreadyHeld]);

    await t.app.runJobsNow();
    expect(await idsIn(t.database.db, 'patients', [patient])).toEqual(new Set([patient]));

    const list = await get(token, `${retentionPaths.holds}?state=active`);
    expect(list.json().data.holds.map((h: { _id: string }) => h._id)).toContain(hold._id);

    const lift = await post(token, retentionPaths.lift(hold._id), { reason: 'Case settled' });
    expect(lift.statusCode, lift.body).toBe(200);
    expect(lift.json().data).toMatchObject({ liftReason: 'Case settled', liftedByEmail: testAdmin.email });
    const twice = await post(token, retentionPaths.lift(hold._id), { reason: 'Again' });
    expect(twice.statusCode).toBe(409);
    await t.app.runJobsNow();
    expect(await idsIn(t.database.db, 'patients', [patient])).toEqual(new Set());
  });

  it('are placed on a machine, labelled by its number', async () => {
    const { deviceId, machineNumber } = await addDevice(t);
    const res = await post(token, retentionPaths.holds, {
      subjectKind: 'device',
      subjectId: deviceId,
      reason: 'Audit',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.subjectLabel).toBe(`Machine ${machineNumber}`);
  });

  it('refuse bad input with a 400 naming the field', async () => {
    const cases: [object, string][] = [
      [{ subjectKind: 'clinic', subjectId: unknownId, reason: 'r' }, 'subjectKind'],
      [{ subjectKind: 'patient', subjectId: 'nope', reason: 'r' }, 'subjectId'],
      [{ subjectKind: 'patient', subjectId: unknownId, reason: 'r' }, 'subjectId'],
      [{ subjectKind: 'device', subjectId: unknownId, reason: '   ' }, 'reason'],
      [{ subjectKind: 'device', subjectId: unknownId, reason: 'r'.repeat(501) }, 'reason'],
      [{ subjectKind: 'device', subjectId: unknownId, reason: 'r', extra: 1 }, 'extra'],
    ];
    for (const [payload, field] of cases) {
      const res = await post(token, retentionPaths.holds, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.body, JSON.stringify(payload)).toContain(field);
    }
    expect((await post(token, retentionPaths.lift('x'), { reason: 'r' })).statusCode).toBe(400);
    expect((await post(token, retentionPaths.lift(unknownId), { reason: 'r' })).statusCode).toBe(404);
    const noReason = await post(token, retentionPaths.lift(unknownId), {});
    expect([noReason.statusCode, fieldOf(noReason.body)]).toEqual([400, 'reason']);
    expect((await get(token, `${retentionPaths.holds}?state=gone`)).statusCode).toBe(400);
  });

  it('need retention.manage', async () => {
    for (const res of [
      await get(reader, retentionPaths.holds),
      await post(reader, retentionPaths.holds, { subjectKind: 'device', subjectId: unknownId, reason: 'r' }),
      await post(reader, retentionPaths.lift(unknownId), { reason: 'r' }),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().msg).toBe(permissionMessages.missing('retention.manage'));
    }
  });
});
