import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceApiMessages } from '@app/contract/device-api';
import { apiPaths } from '@app/contract/paths';
import { enrolDevice, type EnrolledDevice } from '../test/device-fixtures.ts';
import { redisRelay } from '../test/redis-relay.ts';
import { secondInstance } from '../test/second-instance.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';

/*
 * Issue 36, item 3 (decision 073): with REDIS_URL, the anonymous per-address limit and the
 * per-machine limit count in Redis, so two API instances together allow the documented rate, not
 * twice it. Each case is run against two instances on one Redis prefix, and against two that count
 * in their own memory (no REDIS_URL, as before), which allow twice as much.
 */

const redisUrl = process.env.REDIS_URL!;
const noRedis = { redisUrl: undefined };

let t: TestApp;
let machine: EnrolledDevice;
const others: Array<{ close(): Promise<void> }> = [];
beforeAll(async () => {
  // 60 a minute per address; per machine 60 a minute, a burst of 20 and then one a second.
  t = await createTestApp({ ANON_RATE_PER_MINUTE: '60', DEVICE_RATE_PER_MINUTE: '60' });
  machine = await enrolDevice(t);
});
afterAll(async () => {
  for (const o of others) await o.close();
  await t.close();
});

/** API instances on the test app's database and clock, with its settings (its Redis prefix) unless changed. */
async function instances(settings: Parameters<typeof secondInstance>[1] = {}, count = 2) {
  const apps: FastifyInstance[] = [];
  for (let i = 0; i < count; i++) {
    const made = await secondInstance(t, settings);
    others.push(made);
    apps.push(made.app);
  }
  return apps;
}
/** A fresh address for each case, so no case inherits another's count. */
let addresses = 0;
const newAddress = () => `203.0.113.${++addresses}`;

const anonymousCall = (app: FastifyInstance, remoteAddress: string) =>
  app.inject({ method: 'GET', url: apiPaths.subscriptionDetail('no-such-link'), remoteAddress });
const heartbeat = (app: FastifyInstance, credential: string, remoteAddress = '192.0.2.10') =>
  app.inject({
    method: 'POST',
    url: apiPaths.appHeartbeat,
    remoteAddress,
    headers: { authorization: `Device ${credential}` },
    payload: { versionCode: 1, versionName: '1.0.0' },
  });
const madeUp = () => `dvc_${randomBytes(32).toString('base64url')}`;

/** `count` calls, taking turns between the instances: each answer's status and instance, in order. */
async function alternate(
  apps: FastifyInstance[],
  count: number,
  call: (app: FastifyInstance) => Promise<{ statusCode: number }>,
) {
  const answers: Array<{ on: number; status: number }> = [];
  for (let i = 0; i < count; i++) {
    const on = i % apps.length;
    answers.push({ on, status: (await call(apps[on]!)).statusCode });
  }
  return answers;
}
const statusesOf = (answers: Array<{ status: number }>) => answers.map((a) => a.status);
const allowed = (answers: Array<{ status: number }>) => answers.filter((a) => a.status !== 429).length;

describe('the anonymous per-address limit across two API instances', () => {
  it('allows ANON_RATE_PER_MINUTE in total on one Redis, refused on both instances past it', async () => {
    const apps = await instances();
    const from = newAddress();
    const answers = await alternate(apps, 100, (app) => anonymousCall(app, from));
    expect(allowed(answers)).toBe(60);
    expect(statusesOf(answers.slice(60))).toEqual(Array(40).fill(429));
    // Both instances refuse past it, each after 30 of its own.
    expect(new Set(answers.slice(60).map((a) => a.on))).toEqual(new Set([0, 1]));
    const refused = await anonymousCall(apps[1]!, from);
    expect(refused.json()).toEqual({
      code: 429,
      msg: expect.stringMatching(/^Too many requests from this address: try again in \d+ seconds?$/),
      data: null,
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Another address, and the same address on an installation of another prefix, start afresh.
    expect((await anonymousCall(apps[0]!, newAddress())).statusCode).not.toBe(429);
    const [elsewhere] = await instances({ redisPrefix: `test-${randomBytes(6).toString('hex')}:` }, 1);
    expect((await anonymousCall(elsewhere!, from)).statusCode).not.toBe(429);
  });

  it('holds in a parallel burst: exactly 60 of 200 at once get through, counted atomically', async () => {
    const apps = await instances();
    const from = newAddress();
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => anonymousCall(apps[i % 2]!, from)),
    );
    expect(answers.filter((r) => r.statusCode !== 429)).toHaveLength(60);
  });

  it('without REDIS_URL each instance counts alone, as before: twice the rate', async () => {
    const apps = await instances(noRedis);
    const from = newAddress();
    expect(allowed(await alternate(apps, 200, (app) => anonymousCall(app, from)))).toBe(120);
  });
});

describe('the per-machine limit across two API instances', () => {
  it('allows one machine its burst in total on one Redis, then one a second on either instance', async () => {
    const apps = await instances();
    const answers = await alternate(apps, 30, (app) => heartbeat(app, machine.credential));
    expect(statusesOf(answers)).toEqual([...Array(20).fill(200), ...Array(10).fill(429)]);
    const refused = await heartbeat(apps[0]!, machine.credential);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ code: 429, msg: deviceApiMessages.rateLimited, data: null });
    expect(refused.headers['retry-after']).toBe('1');
    // Another machine is not held up.
    const other = await enrolDevice(t);
    expect((await heartbeat(apps[1]!, other.credential)).statusCode).toBe(200);
    // 60 a minute: a second later there is room for exactly one more, on whichever instance.
    t.clock.advance(1000);
    expect((await heartbeat(apps[1]!, machine.credential)).statusCode).toBe(200);
    expect((await heartbeat(apps[0]!, machine.credential)).statusCode).toBe(429);
    expect((await heartbeat(apps[1]!, machine.credential)).statusCode).toBe(429);
  });

  it('without REDIS_URL each instance counts alone, as before: twice the burst', async () => {
    const apps = await instances(noRedis);
    const fresh = await enrolDevice(t);
    expect(allowed(await alternate(apps, 60, (app) => heartbeat(app, fresh.credential)))).toBe(40);
  });

  it('counts refused device credentials per address in total too: ANON_RATE_PER_MINUTE, then 429', async () => {
    const apps = await instances();
    const from = newAddress();
    // A machine behind the same address, known good on the first instance: its count is given back.
    const neighbour = await enrolDevice(t);
    expect((await heartbeat(apps[0]!, neighbour.credential, from)).statusCode).toBe(200);
    const answers = await alternate(apps, 80, (app) => heartbeat(app, madeUp(), from));
    expect(statusesOf(answers)).toEqual([...Array(60).fill(401), ...Array(20).fill(429)]);
    const refused = await heartbeat(apps[1]!, madeUp(), from);
    expect(refused.json()).toEqual({ code: 429, msg: deviceApiMessages.credentialsThrottled, data: null });
    // ...and it is not held up by the others' refusals.
    expect((await heartbeat(apps[0]!, neighbour.credential, from)).statusCode).toBe(200);
  });
});

describe('when Redis does not answer', () => {
  it('starts, and each instance limits in its own memory: every request answered', async () => {
    const [app] = await instances({ redisUrl: 'redis://127.0.0.1:1' }, 1);
    const from = newAddress();
    const anonymous = await alternate([app!], 80, (a) => anonymousCall(a, from));
    expect(statusesOf(anonymous).filter((s) => s >= 500)).toEqual([]);
    expect(allowed(anonymous)).toBe(60);
    const fresh = await enrolDevice(t);
    const beats = await alternate([app!], 30, (a) => heartbeat(a, fresh.credential));
    expect(statusesOf(beats)).toEqual([...Array(20).fill(200), ...Array(10).fill(429)]);
  });

  it('a Redis that hangs holds one call at most its 500 ms timeout, the next ones not at all', async () => {
    const relay = await redisRelay(new URL(redisUrl));
    others.push(relay);
    const [app] = await instances({ redisUrl: relay.url }, 1);
    const fresh = await enrolDevice(t);
    expect((await heartbeat(app!, fresh.credential)).statusCode).toBe(200);

    relay.freeze();
    let started = performance.now();
    expect((await heartbeat(app!, fresh.credential)).statusCode).toBe(200);
    const first = performance.now() - started;
    expect(first).toBeGreaterThanOrEqual(400);
    expect(first).toBeLessThan(1500);
    // Without the pause after a failure, each of these would wait 500 ms too (5 s in all).
    started = performance.now();
    for (let i = 0; i < 10; i++) expect((await heartbeat(app!, fresh.credential)).statusCode).toBe(200);
    expect(performance.now() - started).toBeLessThan(2000);

    relay.thaw();
    const direct = new Redis(redisUrl);
    others.push({ close: async () => void direct.disconnect() });
    // Redis counts again once it answers: the machine's bucket, removed here, is back after a call.
    const key = `${t.config.redisPrefix}limit:machine:${fresh.deviceId}`;
    await direct.del(key);
    await expect
      .poll(
        async () => {
          expect((await heartbeat(app!, fresh.credential)).statusCode).toBe(200);
          return direct.exists(key);
        },
        { timeout: 10_000, interval: 300 },
      )
      .toBe(1);
  });
});
