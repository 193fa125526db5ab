import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceApiMessages } from '@app/contract/device-api';
import { apiPaths } from '@app/contract/paths';
import { treatmentImages, treatmentRecords } from '#api/db/schema/treatments.ts';
import { adminToken } from '#api/test/device-fixtures.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import {
  call,
  doctor,
  machine,
  patientsOf,
  technician,
  treatmentItem,
  type Machine,
  type Person,
} from './sync-test-fixtures.ts';

let t: TestApp;
let a: Machine;
let b: Machine;
let dr1: Person;
let dr2: Person;
let drB: Person;
let patient1: string;
let patient2: string;

beforeAll(async () => {
  t = await createTestApp();
  [a, b] = [await machine(t), await machine(t)];
  const techA = await technician(t, a);
  [dr1, dr2] = [await doctor(t, a, techA), await doctor(t, a, techA)];
  drB = await doctor(t, b);
  patient1 = (await patientsOf(t, a, dr1))[0]!.id;
  patient2 = (await patientsOf(t, a, dr2))[0]!.id;
});
afterAll(() => t.close());

const send = (m: Machine, who: Person, items: unknown[]) =>
  call(t, m, { method: 'POST', url: apiPaths.appTreatments, payload: { items } }, who);
const recordOf = (clientId: string) =>
  t.database.db.select().from(treatmentRecords).where(eq(treatmentRecords.clientId, clientId));
const image = (bytes: Buffer) => ({ id: randomUUID(), data: bytes.toString('base64') });
const picture = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 40 } } });

describe('POST treatments', () => {
  it('records treatments of the signed-in doctor and refuses bad items naming their field', async () => {
    const good = treatmentItem(t, patient1);
    const backwards = treatmentItem(t, patient1, {
      treatmentStartTime: good.treatmentEndTime,
      treatmentEndTime: good.treatmentStartTime,
    });
    const otherDoctorsPatient = treatmentItem(t, patient2);
    const unknownPatient = treatmentItem(t, randomUUID());
    const noEnergy = { ...treatmentItem(t, patient1), treatmentEnergy: 'high' };
    const future = treatmentItem(t, patient1, {
      treatmentEndTime: new Date(t.clock.now.getTime() + 3_600_000).toISOString(),
    });
    const res = await send(a, dr1, [good, backwards, otherDoctorsPatient, unknownPatient, noEnergy, future]);
    expect(res.statusCode).toBe(200);
    const notFound = `patientId: ${deviceApiMessages.patientNotFound}`;
    expect(res.json().data.results).toEqual([
      { id: good.id, status: 'accepted' },
      {
        id: backwards.id,
        status: 'refused',
        reason: 'treatmentEndTime: treatmentEndTime must not be before treatmentStartTime',
      },
      { id: otherDoctorsPatient.id, status: 'refused', reason: notFound },
      { id: unknownPatient.id, status: 'refused', reason: notFound },
      { id: noEnergy.id, status: 'refused', reason: 'treatmentEnergy: treatmentEnergy must be a number' },
      { id: future.id, status: 'refused', reason: 'treatmentEndTime: time is in the future' },
    ]);
    const [row] = await recordOf(good.id);
    expect(row).toMatchObject({
      deviceId: a.deviceId,
      doctorId: dr1.id,
      treatmentPlan: good.treatmentPlan,
      treatmentDuration: 20,
      totalEnergyOutput: 400,
    });
    expect(row!.createdAt.toISOString()).toBe(good.treatmentEndTime);
    expect(row!.receivedAt!.getTime()).toBe(t.clock.now.getTime());
  });

  it('answers a retried batch the same and stores each record once, even when doubled in a batch', async () => {
    const item = treatmentItem(t, patient1, {
      treatmentImages: [image(await picture(8, 8).png().toBuffer())],
    });
    const items = [item, { ...item }, treatmentItem(t, patient2)];
    const first = (await send(a, dr1, items)).json().data;
    expect(first).toMatchObject({ accepted: 2, refused: 1 });
    expect((await send(a, dr1, items)).json().data).toEqual(first);
    const rows = await recordOf(item.id);
    expect(rows).toHaveLength(1);
    const images = await t.database.db
      .select()
      .from(treatmentImages)
      .where(eq(treatmentImages.treatmentId, rows[0]!.id));
    expect(images).toHaveLength(1);
  });

  it('takes PNG and JPEG pictures by content, re-encoded as JPEG of at most 1280 px', async () => {
    const png = await picture(2000, 1000).png().toBuffer();
    const jpeg = await picture(300, 200).jpeg().toBuffer();
    const item = treatmentItem(t, patient1, { treatmentImages: [image(png), image(jpeg)] });
    expect((await send(a, dr1, [item])).json().data.accepted).toBe(1);
    const [row] = await recordOf(item.id);
    const stored = await t.database.db
      .select()
      .from(treatmentImages)
      .where(eq(treatmentImages.treatmentId, row!.id))
      .orderBy(asc(treatmentImages.position));
    expect(stored.map((s) => [s.position, s.clientId])).toEqual([
      [0, item.treatmentImages![0]!.id],
      [1, item.treatmentImages![1]!.id],
    ]);
    const sizes = [];
    for (const s of stored) {
      expect(s.url.startsWith('data:image/jpeg;base64,')).toBe(true);
      const meta = await sharp(Buffer.from(s.url.split(',')[1]!, 'base64')).metadata();
      expect(meta.format).toBe('jpeg');
      sizes.push([meta.width, meta.height]);
    }
    expect(sizes).toEqual([
      [1280, 640],
      [300, 200],
    ]);
  });

  it('refuses only the treatment whose picture is not a PNG or JPEG, or too large', async () => {
    const png = image(await picture(8, 8).png().toBuffer());
    const text = image(Buffer.from('just some text pretending to be picture.png'));
    const fakePng = image(
      Buffer.concat([
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
        Buffer.from('not a png'),
      ]),
    );
    // Over 5 MB decoded (but under the base64 field's own bound): the decoded size check.
    const huge = image(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(5 * 1024 * 1024 + 100)]));
    const items = [
      treatmentItem(t, patient1, { treatmentImages: [png, text] }),
      treatmentItem(t, patient1, { treatmentImages: [fakePng] }),
      treatmentItem(t, patient1, { treatmentImages: [huge] }),
      treatmentItem(t, patient1, { treatmentImages: [png] }),
    ];
    const res = await send(a, dr1, items);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.results).toEqual([
      { id: items[0]!.id, status: 'refused', reason: 'treatmentImages[1].data: image must be a PNG or JPEG' },
      { id: items[1]!.id, status: 'refused', reason: 'treatmentImages[0].data: image must be a PNG or JPEG' },
      { id: items[2]!.id, status: 'refused', reason: 'treatmentImages[0].data: image is larger than 5 MB' },
      { id: items[3]!.id, status: 'accepted' },
    ]);
    expect(await recordOf(items[0]!.id)).toEqual([]);
    const notBase64 = treatmentItem(t, patient1, { treatmentImages: [{ id: randomUUID(), data: '@@@' }] });
    expect((await send(a, dr1, [notBase64])).json().data.results[0].reason).toBe(
      'treatmentImages[0].data: data must be base64',
    );
  });

  it("refuses, from machine B, a treatment naming machine A's patient", async () => {
    const item = treatmentItem(t, patient1);
    const { data } = (await send(b, drB, [item])).json();
    expect(data.results[0]).toEqual({
      id: item.id,
      status: 'refused',
      reason: `patientId: ${deviceApiMessages.patientNotFound}`,
    });
    expect(await recordOf(item.id)).toEqual([]);
  });

  it('lets only a doctor record treatments', async () => {
    const tech = await technician(t, a);
    const res = await send(a, tech, [treatmentItem(t, patient1)]);
    expect(res.statusCode).toBe(403);
    expect(res.json().msg).toBe(deviceApiMessages.onlyDoctors);
  });
});

describe('GET treatments', () => {
  it('lists only the signed-in doctor’s treatments on this machine', async () => {
    const mine = treatmentItem(t, patient1);
    const theirs = treatmentItem(t, patient2);
    await send(a, dr1, [mine]);
    await send(a, dr2, [theirs]);
    const list = (await call(t, a, { method: 'GET', url: `${apiPaths.appTreatments}?limit=100` }, dr1)).json()
      .data;
    const ids = list.data.map((x: { clientId: string }) => x.clientId);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(theirs.id);
    expect(list.data.find((x: { clientId: string }) => x.clientId === mine.id)).toMatchObject({
      patientId: patient1,
      imageCount: 0,
      treatmentEndTime: mine.treatmentEndTime,
    });
    const onB = (await call(t, b, { method: 'GET', url: apiPaths.appTreatments }, drB)).json().data;
    expect(onB).toMatchObject({ data: [], total: 0 });
  });

  it("shows the machine's treatments in the console's treatment list", async () => {
    const item = treatmentItem(t, patient1);
    await send(a, dr1, [item]);
    const [row] = await recordOf(item.id);
    const res = await t.injectAs(await adminToken(t), {
      method: 'GET',
      url: `${apiPaths.treatmentsAll}?machineNumber=${a.machineNumber}&limit=100`,
    });
    expect(res.statusCode).toBe(200);
    const shown = res.json().data.data.find((x: { _id: string }) => x._id === row!.id);
    expect(shown).toMatchObject({ machineNumber: a.machineNumber, doctorId: dr1.id });
  });
});
