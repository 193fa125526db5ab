import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiPaths } from '@app/contract/paths';
import { accessLogs } from '#api/db/schema/logs.ts';
import { deviceInject, enrolDevice } from '#api/test/device-fixtures.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';

/*
 * Known-good credentials are answered from memory (decision 038). These tests change a credential
 * or its device behind the API's back, as another API instance or an operator would, and expect
 * the machine to be refused as soon as the database announces the change.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const heartbeat = (credential: string) =>
  deviceInject(t, credential, {
    method: 'POST',
    url: apiPaths.appHeartbeat,
    payload: { versionCode: 1, versionName: '1.0.0' },
  });

/** Waits until the machine's calls answer `want`: a notice takes a moment on PostgreSQL. */
const settlesTo = (credential: string, want: number) =>
  vi.waitFor(async () => expect((await heartbeat(credential)).statusCode).toBe(want), {
    timeout: 3000,
    interval: 20,
  });

describe('device credentials changed outside this API instance', () => {
  it('refuses a credential revoked directly in the database', async () => {
    const device = await enrolDevice(t);
    expect((await heartbeat(device.credential)).statusCode).toBe(200);
    expect((await heartbeat(device.credential)).statusCode).toBe(200);
    await t.database.db.execute(
      sql`update device_credentials set revoked_at = now() where device_id = ${device.deviceId}`,
    );
    await settlesTo(device.credential, 401);
  });

  it('refuses the machine of a device deleted directly in the database', async () => {
    const device = await enrolDevice(t);
    expect((await heartbeat(device.credential)).statusCode).toBe(200);
    await t.database.db.execute(sql`delete from devices where id = ${device.deviceId}`);
    await settlesTo(device.credential, 401);
  });

  it('files the calls of a renumbered machine under its new number', async () => {
    const device = await enrolDevice(t);
    expect((await heartbeat(device.credential)).statusCode).toBe(200);
    const renumbered = `MN-R${randomBytes(3).toString('hex')}`;
    await t.database.db.execute(
      sql`update devices set machine_number = ${renumbered} where id = ${device.deviceId}`,
    );
    // The app's access-log batch carries no machine number: the server files it under the
    // machine of the credential, which must be the new number once the notice is in.
    const deadline = Date.now() + 3000;
    let filedUnder: unknown;
    do {
      const id = crypto.randomUUID();
      const res = await deviceInject(t, device.credential, {
        method: 'POST',
        url: apiPaths.appAccessLogs,
        payload: { items: [{ id, resource: 'app/home', time: t.clock.now.toISOString() }] },
      });
      expect(res.statusCode).toBe(200);
      const [row] = await t.database.db
        .select({ machineNumber: accessLogs.machineNumber })
        .from(accessLogs)
        .where(eq(accessLogs.clientId, id));
      filedUnder = row?.machineNumber;
      if (filedUnder !== renumbered) await new Promise((resolve) => setTimeout(resolve, 20));
    } while (filedUnder !== renumbered && Date.now() < deadline);
    expect(filedUnder).toBe(renumbered);
  });
});
