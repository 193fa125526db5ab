import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { licencePaths } from '@app/contract/licences';
import { apiPaths } from '@app/contract/paths';
import { buildApp } from '#api/app.ts';
import { openDatabase, type Database } from '#api/db/client.ts';
import { rowsOf } from '#api/db/rows-of.ts';
import { adminToken, enrolDevice, type EnrolledDevice } from '#api/test/device-fixtures.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';

/*
 * Two API instances on one PostgreSQL database, as behind a load balancer: what one does to a
 * licence or to the signing keys, a machine answered by the other learns at once, through the
 * database's notices (migration 0036), not after a cache's time runs out. PostgreSQL only: PGlite is
 * one process (there the notices are in-process, checked in check-in-routes.test.ts).
 */

const onPostgres = Boolean(process.env.DATABASE_URL);
let t: TestApp;
let otherDb: Database;
let other: FastifyInstance;

beforeAll(async () => {
  if (!onPostgres) return;
  t = await createTestApp();
  const [row] = rowsOf<{ name: string }>(await t.database.db.execute(sql`select current_database() as name`));
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${row!.name}`;
  otherDb = await openDatabase({ databaseUrl: url.toString(), dataDir: null });
  other = await buildApp({ config: t.config, database: otherDb, now: () => t.clock.now, logger: false });
  await other.ready();
});
afterAll(async () => {
  await other?.close();
  await otherDb?.close();
  await t?.close();
});

const onOther = (d: EnrolledDevice, method: 'GET' | 'POST', url: string, payload?: object) =>
  other.inject({ method, url, payload, headers: { authorization: `Device ${d.credential}` } });
const heartbeatOnOther = async (d: EnrolledDevice) => {
  const res = await onOther(d, 'POST', apiPaths.appHeartbeat, { versionCode: 7, versionName: '1.7.0' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.licenceVersion as number;
};

describe.skipIf(!onPostgres)('two API instances on one database', () => {
  it("answers a licence change made through one instance on the other's next heartbeat", async () => {
    const d = await enrolDevice(t);
    // The other instance has read the version once and answers it from memory from now on.
    expect(await heartbeatOnOther(d)).toBe(1);
    expect(await heartbeatOnOther(d)).toBe(1);
    const exempted = await t.injectAs(await t.stepUp(await adminToken(t)), {
      method: 'PUT',
      url: licencePaths.deviceExemption(d.deviceId),
      payload: {
        kind: 'service',
        reason: 'Service visit',
        until: new Date(t.clock.now.getTime() + 10 * 86_400_000).toISOString().slice(0, 10),
      },
    });
    expect(exempted.statusCode, exempted.body).toBe(200);
    const version = exempted.json().data.version as number;
    expect(version).toBeGreaterThan(1);
    await expect.poll(() => heartbeatOnOther(d), { timeout: 5000, interval: 50 }).toBe(version);
    const licence = await onOther(d, 'GET', licencePaths.appLicence);
    expect(licence.json().data.version).toBe(version);
  });

  it('signs with the key one instance rotated to, on the other too, which publishes both', async () => {
    const d = await enrolDevice(t);
    const kidOnOther = async () =>
      decodeProtectedHeader((await onOther(d, 'GET', licencePaths.appLicence)).json().data.token as string)
        .kid;
    const before = await kidOnOther();
    const { kid, retired } = await t.app.licenceKeys.rotate();
    expect(retired).toEqual([before]);
    await expect.poll(kidOnOther, { timeout: 5000, interval: 50 }).toBe(kid);
    const jwks = (await other.inject({ method: 'GET', url: licencePaths.jwks })).json();
    expect(jwks.keys.map((k: { kid: string }) => k.kid)).toEqual([kid, before]);
  });
});
