import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@app/contract/paths';
import { doctors, patients } from '#api/db/schema/devices.ts';
import { treatmentRecords } from '#api/db/schema/treatments.ts';
import { accessLogs, errorLogs } from '#api/db/schema/logs.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import {
  accessLogItem,
  call,
  doctor,
  doctorItem,
  machine,
  patientItem,
  patientsOf,
  roleNumber,
  technician,
  treatmentItem,
  type Machine,
  type Person,
} from './sync-test-fixtures.ts';

/*
 * A NUL character (which PostgreSQL text cannot hold) inside one item of a device batch refuses
 * that item only, with its field named, like any other invalid item (issue 32, item 6); before,
 * the request's NUL guard refused the whole batch with a 400 and the good items were lost.
 */

let t: TestApp;
let m: Machine;
let tech: Person;
let dr: Person;
let appRole: number;
let patientId: string;

beforeAll(async () => {
  t = await createTestApp();
  m = await machine(t);
  tech = await technician(t, m);
  dr = await doctor(t, m, tech);
  appRole = await roleNumber(t, 'app');
  patientId = (await patientsOf(t, m, dr))[0]!.id;
});
afterAll(() => t.close());

const post = (url: string, body: unknown, who?: Person) =>
  call(t, m, { method: 'POST', url, payload: body as Record<string, unknown> }, who);

const refusedOnly = (second: { id: string }, reason: string, first: { id: string }) => ({
  accepted: 1,
  refused: 1,
  results: [
    { id: first.id, status: 'accepted' },
    { id: second.id, status: 'refused', reason },
  ],
});

describe('a NUL character inside one item of a device batch', () => {
  it('refuses only that doctor, naming the field, and registers the others', async () => {
    const good = doctorItem(t, m, appRole);
    const bad = doctorItem(t, m, appRole, { nickName: 'An\u0000na' });
    const res = await post(apiPaths.appDoctors, { items: [good, bad] }, tech);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual(
      refusedOnly(bad, 'nickName: nickName must not contain a NUL character', good),
    );
    const rows = await t.database.db
      .select({ clientId: doctors.clientId })
      .from(doctors)
      .where(inArray(doctors.clientId, [good.id, bad.id]));
    expect(rows).toEqual([{ clientId: good.id }]);
  });

  it('refuses only that patient, also when the NUL is in a key of the item', async () => {
    const good = patientItem(t, m);
    const badValue = patientItem(t, m, { city: 'Ber\u0000lin' });
    const badKey = { ...patientItem(t, m), 'ci\u0000ty': 'Berlin' };
    const res = await post(apiPaths.appPatients, { items: [good, badValue, badKey] }, dr);
    expect(res.statusCode, res.body).toBe(200);
    const { data } = res.json();
    expect(data).toMatchObject({ accepted: 1, refused: 2 });
    expect(data.results[1]).toEqual({
      id: badValue.id,
      status: 'refused',
      reason: 'city: city must not contain a NUL character',
    });
    expect(data.results[2]).toEqual({
      id: badKey.id,
      status: 'refused',
      reason: 'ci\u0000ty: ci\u0000ty must not contain a NUL character',
    });
    const rows = await t.database.db
      .select({ clientId: patients.clientId })
      .from(patients)
      .where(inArray(patients.clientId, [good.id, badValue.id, badKey.id]));
    expect(rows).toEqual([{ clientId: good.id }]);
  });

  it('refuses only that treatment, naming the picture that holds it', async () => {
    const good = treatmentItem(t, patientId);
    const bad = treatmentItem(t, patientId, { treatmentImages: [{ id: randomUUID(), data: 'iVBO\u0000' }] });
    const res = await post(apiPaths.appTreatments, { items: [good, bad] }, dr);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual(
      refusedOnly(
        bad,
        'treatmentImages[0].data: treatmentImages[0].data must not contain a NUL character',
        good,
      ),
    );
    const rows = await t.database.db
      .select({ clientId: treatmentRecords.clientId })
      .from(treatmentRecords)
      .where(inArray(treatmentRecords.clientId, [good.id, bad.id]));
    expect(rows).toEqual([{ clientId: good.id }]);
  });

  it('refuses only that access log and that error log, and stores the others', async () => {
    const good = accessLogItem(t);
    const bad = accessLogItem(t, { resource: 'app/\u0000home' });
    const access = await post(apiPaths.appAccessLogs, { items: [good, bad] });
    expect(access.statusCode, access.body).toBe(200);
    expect(access.json().data).toEqual(
      refusedOnly(bad, 'resource: resource must not contain a NUL character', good),
    );
    expect(
      await t.database.db.select().from(accessLogs).where(eq(accessLogs.clientId, good.id)),
    ).toHaveLength(1);

    const utcTime = new Date(t.clock.now.getTime() - 60_000).toISOString();
    const okError = { id: randomUUID(), resource: 'app/sync', functionName: 'upload', utcTime };
    const badError = { ...okError, id: randomUUID(), message: 'disk \u0000 full' };
    const errors = await post(apiPaths.appErrorLogs, { items: [okError, badError] });
    expect(errors.statusCode, errors.body).toBe(200);
    expect(errors.json().data).toEqual(
      refusedOnly(badError, 'message: message must not contain a NUL character', okError),
    );
    expect(
      await t.database.db.select().from(errorLogs).where(eq(errorLogs.clientId, okError.id)),
    ).toHaveLength(1);
  });

  it('still refuses the whole request with a 400 naming the field when the NUL is outside the items', async () => {
    const outside = await post(apiPaths.appAccessLogs, { items: [accessLogItem(t)], 'no\u0000te': 'x' });
    expect(outside.statusCode).toBe(400);
    expect(outside.json().msg).toBe('no\u0000te must not contain a NUL character');
    const notAList = await post(apiPaths.appAccessLogs, { items: 'a\u0000b' });
    expect(notAList.statusCode).toBe(400);
    expect(notAList.json().msg).toBe('items must not contain a NUL character');
    const query = await call(t, m, { method: 'GET', url: `${apiPaths.appPatients}?page=1%00` }, dr);
    expect(query.statusCode).toBe(400);
    expect(query.json().msg).toBe('page must not contain a NUL character');
    const login = await call(t, m, {
      method: 'POST',
      url: apiPaths.appLogin,
      payload: { username: 'te\u0000ss', password: 'x' },
    });
    expect(login.statusCode).toBe(400);
    expect(login.json().msg).toBe('username must not contain a NUL character');
  });
});
