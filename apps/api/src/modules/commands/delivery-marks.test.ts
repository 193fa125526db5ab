import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { machineCommands } from '#api/db/schema/commands.ts';
import { enrolDevice, type EnrolledDevice } from '#api/test/device-fixtures.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import { expiredMessages } from './commands-service.ts';
import { createDeliveryMarks } from './delivery-marks.ts';

/*
 * The hand-overs written behind the answer (delivery-marks.ts): what a mark does to a copy in each
 * state it may have reached meanwhile, on whichever instance.
 */

let t: TestApp;
let machine: EnrolledDevice;
beforeAll(async () => {
  t = await createTestApp();
  machine = await enrolDevice(t);
});
afterAll(() => t.close());

const at = new Date('2026-11-29T10:00:00.000Z');
const later = new Date(at.getTime() + 50);
const earlier = new Date(at.getTime() - 50);

async function copy(values: Partial<typeof machineCommands.$inferInsert> = {}) {
  const [row] = await t.database.db
    .insert(machineCommands)
    .values({
      deviceId: machine.deviceId,
      kind: 'sync-now',
      params: {},
      createdAt: new Date(at.getTime() - 60_000),
      createdBy: 'admin@example.com',
      expiresAt: new Date(at.getTime() + 3_600_000),
      ...values,
    })
    .returning({ id: machineCommands.id });
  return row!.id;
}
const rowOf = async (id: string) =>
  (await t.database.db.select().from(machineCommands).where(eq(machineCommands.id, id)))[0]!;

describe('delivery marks written behind the answer', () => {
  it('writes each hand-over with its own time, in one batch, and only the first of repeated ones', async () => {
    const marks = createDeliveryMarks({ db: t.database.db });
    const a = await copy();
    const b = await copy();
    marks.note(a, at);
    marks.note(b, later);
    marks.note(a, later);
    await marks.flush();
    expect(await rowOf(a)).toMatchObject({ state: 'delivered', deliveredAt: at, deliveries: 1 });
    expect(await rowOf(b)).toMatchObject({ state: 'delivered', deliveredAt: later, deliveries: 1 });
  });

  it('wins over a cancel made after the hand-over, and loses to one made before it', async () => {
    const marks = createDeliveryMarks({ db: t.database.db });
    const after = await copy({ state: 'cancelled', finishedAt: later, message: 'Cancelled by x' });
    const before = await copy({ state: 'cancelled', finishedAt: earlier, message: 'Cancelled by x' });
    marks.note(after, at);
    marks.note(before, at);
    await marks.flush();
    expect(await rowOf(after)).toMatchObject({
      state: 'delivered',
      deliveredAt: at,
      finishedAt: null,
      message: null,
    });
    expect(await rowOf(before)).toMatchObject({
      state: 'cancelled',
      deliveredAt: null,
      message: 'Cancelled by x',
    });
  });

  it('keeps a report or an expiry that came first, adding the delivery time', async () => {
    const marks = createDeliveryMarks({ db: t.database.db });
    const reported = await copy({ state: 'succeeded', finishedAt: later, message: 'synced' });
    const expired = await copy({ state: 'expired', finishedAt: later, message: expiredMessages.queued });
    marks.note(reported, at);
    marks.note(expired, at);
    await marks.flush();
    expect(await rowOf(reported)).toMatchObject({ state: 'succeeded', deliveredAt: at, message: 'synced' });
    expect(await rowOf(expired)).toMatchObject({
      state: 'expired',
      deliveredAt: at,
      message: expiredMessages.delivered,
    });
  });

  it('keeps what it could not write and writes it once the database answers', async () => {
    let fail = true;
    const db = new Proxy(t.database.db, {
      get: (target, key, receiver) =>
        key === 'execute' && fail
          ? () => Promise.reject(new Error('connection lost'))
          : Reflect.get(target, key, receiver),
    });
    const marks = createDeliveryMarks({ db });
    const id = await copy();
    marks.note(id, at);
    await marks.flush();
    expect((await rowOf(id)).state).toBe('queued');
    fail = false;
    await marks.flush();
    expect(await rowOf(id)).toMatchObject({ state: 'delivered', deliveredAt: at });
  });
});
