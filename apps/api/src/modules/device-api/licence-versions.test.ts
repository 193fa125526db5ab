import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { devices } from '#api/db/schema/devices.ts';
import { machineWithSerial } from '../subscriptions/subscription-test-requests.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import { createLicenceVersions } from './licence-versions.ts';

/*
 * The heartbeat's licence versions, from memory (licence-versions.ts). Each cache here is fed by
 * hand, not by the database, so what it answers shows whether it read the row or remembered.
 */

let t: TestApp;
beforeAll(async () => (t = await createTestApp()));
afterAll(() => t.close());

let serial = 0;
const machine = () => machineWithSerial(t, `SN-LV-${++serial}`);
const setVersion = (id: string, licenceVersion: number) =>
  t.database.db.update(devices).set({ licenceVersion }).where(eq(devices.id, id));

describe('the licence version cache', () => {
  it('remembers nothing while its feed is not live: every call reads the row', async () => {
    const versions = createLicenceVersions({ db: t.database.db });
    const id = await machine();
    expect(await versions.get(id)).toBe(1);
    await setVersion(id, 2);
    expect(await versions.get(id)).toBe(2);
    expect(versions.size).toBe(0);
  });

  it('answers from memory while live, and takes each notice', async () => {
    const versions = createLicenceVersions({ db: t.database.db });
    versions.feed.onLive(true);
    const id = await machine();
    expect(versions.peek(id)).toBeUndefined();
    expect(await versions.get(id)).toBe(1);
    await setVersion(id, 5);
    expect(await versions.get(id)).toBe(1);
    versions.feed.onPayload(`${id}:5`);
    expect(versions.peek(id)).toBe(5);
    expect(await versions.get(id)).toBe(5);
  });

  it('never goes back to an older version (a late notice, a read that raced a change)', async () => {
    const versions = createLicenceVersions({ db: t.database.db });
    versions.feed.onLive(true);
    const id = await machine();
    await setVersion(id, 3);
    const read = versions.get(id);
    versions.feed.onPayload(`${id}:9`);
    expect(await read).toBe(3);
    expect(await versions.get(id)).toBe(9);
    versions.feed.onPayload(`${id}:4`);
    expect(await versions.get(id)).toBe(9);
  });

  it('forgets everything when the feed goes down, and keeps no read that began before', async () => {
    const versions = createLicenceVersions({ db: t.database.db });
    versions.feed.onLive(true);
    const id = await machine();
    const read = versions.get(id);
    versions.feed.onLive(false);
    versions.feed.onLive(true);
    expect(await read).toBe(1);
    expect(versions.size).toBe(0);
    await setVersion(id, 7);
    expect(await versions.get(id)).toBe(7);
  });

  it('reads the row again once an entry is older than its time to live', async () => {
    let clock = 0;
    const versions = createLicenceVersions({ db: t.database.db, ttlMs: 1000, now: () => clock });
    versions.feed.onLive(true);
    const id = await machine();
    expect(await versions.get(id)).toBe(1);
    await setVersion(id, 6);
    clock = 999;
    expect(await versions.get(id)).toBe(1);
    clock = 1000;
    expect(await versions.get(id)).toBe(6);
  });

  it('answers the licence row from memory at its version, reads it again after a notice of a newer one or once it is old', async () => {
    let clock = 0;
    const versions = createLicenceVersions({ db: t.database.db, rowTtlMs: 1000, now: () => clock });
    versions.feed.onLive(true);
    const id = await machine();
    const setState = (licenceState: 'exempt' | 'lapsed', licenceVersion: number) =>
      t.database.db.update(devices).set({ licenceState, licenceVersion }).where(eq(devices.id, id));
    expect(await versions.licence(id)).toMatchObject({ state: 'unlicensed', version: 1 });
    // Changed behind its back, no notice yet: still the remembered row.
    await setState('exempt', 2);
    expect(await versions.licence(id)).toMatchObject({ state: 'unlicensed', version: 1 });
    // The notice: the next fetch reads the row, and the heartbeat's version agrees.
    versions.feed.onPayload(`${id}:2`);
    expect(await versions.licence(id)).toMatchObject({ state: 'exempt', version: 2 });
    expect(await versions.get(id)).toBe(2);
    // Without a notice, a row older than rowTtlMs is answered once more and read again behind the
    // answer: the next fetch has it.
    await setState('lapsed', 2);
    clock = 999;
    expect((await versions.licence(id))!.state).toBe('exempt');
    clock = 1000;
    expect((await versions.licence(id))!.state).toBe('exempt');
    await vi.waitFor(async () => expect((await versions.licence(id))!.state).toBe('lapsed'));
    // A newer version from a notice is never answered from the old row: it is read first.
    await setState('exempt', 3);
    versions.feed.onPayload(`${id}:3`);
    expect(await versions.licence(id)).toMatchObject({ state: 'exempt', version: 3 });
    expect(await versions.licence('00000000-0000-4000-8000-000000000000')).toBeNull();
  });
});
