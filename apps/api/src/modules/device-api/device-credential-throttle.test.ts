import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { deviceApiMessages } from '@app/contract/device-api';
import { apiPaths } from '@app/contract/paths';
import { accessLogs, errorLogs } from '#api/db/schema/logs.ts';
import { enrolDevice, type EnrolledDevice } from '#api/test/device-fixtures.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import { createDeviceAuth } from './device-auth.ts';

/*
 * Made-up device credentials were not limited (issue 32, item 9): 480 calls in 5 s, all 401, each a
 * database lookup, an update and a log row. Credentials not known good are now counted per client
 * address, with the anonymous limit (ANON_RATE_PER_MINUTE, decision 029); past it, 429 with
 * Retry-After before any database work.
 */

let t: TestApp;
let good: EnrolledDevice;
beforeAll(async () => {
  t = await createTestApp({ ANON_RATE_PER_MINUTE: '60' });
  good = await enrolDevice(t);
});
afterAll(() => t.close());

const madeUp = () => `dvc_${randomBytes(32).toString('base64url')}`;
const heartbeat = (credential: string, remoteAddress: string) =>
  t.app.inject({
    method: 'POST',
    url: apiPaths.appHeartbeat,
    remoteAddress,
    headers: { authorization: `Device ${credential}` },
    payload: { versionCode: 1, versionName: '1.0.0' },
  });

async function errorRowsFrom(address: string) {
  await t.app.audit.flush();
  return t.database.db.select().from(errorLogs).where(eq(errorLogs.location, address));
}

describe('made-up device credentials', () => {
  const flooder = '203.0.113.7';

  it('are answered 429 with Retry-After past 60 a minute from one address, with no database work', async () => {
    const select = vi.spyOn(t.database.db, 'select');
    const update = vi.spyOn(t.database.db, 'update');
    try {
      const first = await Promise.all(Array.from({ length: 60 }, () => heartbeat(madeUp(), flooder)));
      expect(first.map((r) => r.statusCode)).toEqual(Array(60).fill(401));
      select.mockClear();
      update.mockClear();
      const rest = [];
      for (let i = 0; i < 420; i++) rest.push(await heartbeat(madeUp(), flooder));
      expect(rest.map((r) => r.statusCode)).toEqual(Array(420).fill(429));
      expect(rest[0]!.json()).toEqual({ code: 429, msg: deviceApiMessages.credentialsThrottled, data: null });
      expect(Number(rest[0]!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // Refused before the credential's lookup and before the revoked-credential note.
      expect(select).not.toHaveBeenCalled();
      expect(update).not.toHaveBeenCalled();
    } finally {
      select.mockRestore();
      update.mockRestore();
    }
    // Aggregated like other anonymous failures: while the minute is open, one row per kind.
    const rows = await errorRowsFrom(flooder);
    expect(rows.map((r) => r.statusCode).sort()).toEqual([401, 429]);
    // A refusal by the limit is no attempt at anything: no security event (decision 029).
    expect(rows.find((r) => r.statusCode === 429)!.event).toBeNull();
  });

  it('never hold up a machine known good behind the same address, nor another address', async () => {
    expect((await heartbeat(good.credential, '127.0.0.1')).statusCode).toBe(200);
    expect((await heartbeat(madeUp(), flooder)).statusCode).toBe(429);
    expect((await heartbeat(good.credential, flooder)).statusCode).toBe(200);
    expect((await heartbeat(madeUp(), '198.51.100.9')).statusCode).toBe(401);
  });

  it('hold up a machine not yet known behind that address only until its Retry-After', async () => {
    const fresh = await enrolDevice(t);
    const refused = await heartbeat(fresh.credential, flooder);
    expect(refused.statusCode).toBe(429);
    t.clock.advance(Number(refused.headers['retry-after']) * 1000);
    expect((await heartbeat(fresh.credential, flooder)).statusCode).toBe(200);
  });

  it('on the sign-in route, leave as many sign-in failure events as the limit lets through, not one per call', async () => {
    const address = '192.0.2.44';
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: apiPaths.appLogin,
        remoteAddress: address,
        headers: { authorization: `Device ${madeUp()}` },
        payload: { username: 'tess', password: 'x' },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.filter((s) => s === 401)).toHaveLength(60);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40);
    await t.app.audit.flush();
    const events = await t.database.db
      .select()
      .from(accessLogs)
      .where(and(eq(accessLogs.location, address), eq(accessLogs.event, 'app.login.failure')));
    expect(events).toHaveLength(60);
    const limited = (await errorRowsFrom(address)).filter((r) => r.statusCode === 429);
    expect(limited).toHaveLength(1);
    expect(limited[0]!.event).toBeNull();
  });
});

describe('the refused-credential budget', () => {
  it('is used only by refusals: a credential that proves good gives its count back', async () => {
    const clock = { at: t.clock.now.getTime() };
    // Never fed by the database's notices, so nothing is known good: every call is a lookup.
    const auth = createDeviceAuth({ db: t.database.db, now: () => new Date(clock.at), failuresPerMinute: 3 });
    const machine = await enrolDevice(t);
    for (let i = 0; i < 10; i++)
      await expect(auth.authenticateDevice(machine.credential, 'nat')).resolves.toMatchObject({
        deviceId: machine.deviceId,
      });
    for (let i = 0; i < 3; i++)
      await expect(auth.authenticateDevice(madeUp(), 'nat')).rejects.toMatchObject({ statusCode: 401 });
    await expect(auth.authenticateDevice('not-a-credential', 'nat')).rejects.toMatchObject({
      statusCode: 429,
      retryAfterSeconds: 20,
    });
    await expect(auth.authenticateDevice(machine.credential, 'nat')).rejects.toMatchObject({
      statusCode: 429,
    });
    await expect(auth.authenticateDevice(machine.credential, 'elsewhere')).resolves.toBeTruthy();
    // 3 a minute: one more every 20 seconds.
    clock.at += 20_000;
    await expect(auth.authenticateDevice(machine.credential, 'nat')).resolves.toBeTruthy();
  });
});
