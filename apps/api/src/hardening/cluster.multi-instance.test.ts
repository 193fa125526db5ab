// Issue 36 item 5: two real API processes on one PostgreSQL database and one Redis, behind nginx
// (round robin, docs/deployment.md §3's site), driven over HTTP as clients would. Through the
// balancer unless a step must land on one instance on purpose; then that instance's own port. The
// tests run in order on one installation: the kill -9 restarts its instance, and the clocks move
// last (CLOCK_CONTROL=1: each instance's own clock, moved on both).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobsPaths, type JobsList } from '@app/contract/jobs';
import { outboxPaths, type OutboxList } from '@app/contract/outbox';
import { apiPaths } from '@app/contract/paths';
import { clockControlPath } from '../modules/clock-control/clock-control-module.ts';
import { hardeningAdmin, login, stepUp } from './api-process.ts';
import { missingForSuite, request, startCluster, type Cluster } from './cluster.ts';
import {
  adminClient,
  consoleUser,
  enrolledMachine,
  halfSentBatch,
  nextBatches,
  sendBatch,
  signIn,
  streamBatches,
  type Machine,
  type Tally,
} from './cluster-fixtures.ts';

const missing = await missingForSuite({ nginx: true });
if (missing) console.log(`multi-instance suite skipped: ${missing}`);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(missing !== null)('two API instances behind nginx on one PostgreSQL and one Redis', () => {
  let cluster: Cluster;
  let token: string;
  /** The balancer's address for a path; `on(i, path)` one instance's. */
  const lb = (path: string) => `${cluster.url}${path}`;
  const on = (i: number, path: string) => `${cluster.instances[i]!.url}${path}`;

  beforeAll(async () => {
    cluster = await startCluster(2, {
      CLOCK_CONTROL: '1',
      // The alarm checks (and the digests) every second, on the job queue of both instances.
      ALARM_CHECK_SECONDS: '1',
      MIN_SUPPORTED_APP_VERSION_CODE: '40',
      // The kill test's machine sends as fast as it is answered; its limit is not under test here.
      DEVICE_RATE_PER_MINUTE: '100000',
    });
    token = await login(cluster.url);
  });
  afterAll(() => cluster?.stop());

  it('spreads requests over both instances in turn', async () => {
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await request(lb(apiPaths.health)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    const upstreams = answers.map((a) => a.upstream);
    expect(new Set(upstreams)).toEqual(new Set(cluster.upstreams));
    expect(upstreams[0]).not.toBe(upstreams[1]);
  });

  it('shares sign-in throttles in Redis, counted per client address as nginx saw it', async () => {
    const user = await consoleUser(cluster.url, token, ['devices.view']);
    const attempt = (password: string, localAddress: string, headers: Record<string, string> = {}) =>
      request(lb(apiPaths.login), {
        method: 'POST',
        body: { email: user.email, password },
        localAddress,
        headers,
      });
    // Five wrong passwords from one address, taking turns between the instances.
    const wrong = [];
    for (let i = 0; i < 5; i++) wrong.push(await attempt(`wrong-${i}`, '127.0.0.2'));
    expect(wrong.map((a) => a.status)).toEqual([401, 401, 401, 401, 401]);
    expect(new Set(wrong.map((a) => a.upstream))).toEqual(new Set(cluster.upstreams));
    // Counted alone, neither instance would have seen five; together that address is now locked
    // out of this account on both, even with the right password.
    const locked = [await attempt(user.password, '127.0.0.2'), await attempt(user.password, '127.0.0.2')];
    expect(locked.map((a) => a.status)).toEqual([429, 429]);
    expect(new Set(locked.map((a) => a.upstream))).toEqual(new Set(cluster.upstreams));
    expect(Number(locked[0]!.headers['retry-after'])).toBeGreaterThan(14 * 60);
    // A client's own X-Forwarded-For is not believed: nginx appends the address it saw, the one
    // TRUST_PROXY takes.
    const spoofed = await attempt(user.password, '127.0.0.2', { 'x-forwarded-for': '198.51.100.77' });
    expect(spoofed.status).toBe(429);
    expect(Number(spoofed.headers['retry-after'])).toBeGreaterThan(14 * 60);
    // Another address waits out only the account's short back-off (at most 30 s), then signs in.
    let other = await attempt(user.password, '127.0.0.3');
    for (let tries = 0; other.status === 429 && tries < 3; tries++) {
      const wait = Number(other.headers['retry-after']);
      expect(wait).toBeLessThanOrEqual(30);
      await sleep(wait * 1000 + 100);
      other = await attempt(user.password, '127.0.0.3');
    }
    expect(other.status).toBe(200);
  });

  it("applies a role change, a sign-out and a deleted user made on one instance on the other's very next request", async () => {
    const user = await consoleUser(on(0, ''), token, ['devices.view', 'logs.view']);
    const session = await signIn(on(0, ''), user.email, user.password);
    const devices = (i: number, as = session) =>
      request(on(i, `${apiPaths.machines}?page=1&limit=5`), { token: as });
    // Both instances have answered the session (each now holds it in memory, decision 074).
    expect([(await devices(0)).status, (await devices(1)).status]).toEqual([200, 200]);

    // Instance 0 takes devices.view from the role; instance 1's very next request refuses.
    await stepUp(on(0, ''), token);
    const changed = await request(on(0, apiPaths.role(user.roleId)), {
      method: 'PUT',
      token,
      body: { roleName: `Multi ${user.tag}`, type: 'admin', permissions: ['logs.view'] },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect((await devices(1)).status).toBe(403);
    expect((await devices(0)).status).toBe(403);

    // A sign-out through instance 1 ends the session on instance 0 on its next request.
    const logs = (i: number, as: string) =>
      request(on(i, `${apiPaths.accessLogsAll}?limit=1`), { token: as });
    const second = await signIn(on(1, ''), user.email, user.password);
    expect([(await logs(0, second)).status, (await logs(1, second)).status]).toEqual([200, 200]);
    expect((await request(on(1, apiPaths.logout), { method: 'POST', token: second })).status).toBe(200);
    expect((await logs(0, second)).status).toBe(401);

    // The user deleted through instance 1: the first session is refused on instance 0 at once.
    expect((await logs(0, session)).status).toBe(200);
    await stepUp(on(1, ''), token);
    expect((await request(on(1, apiPaths.user(user.userId)), { method: 'DELETE', token })).status).toBe(200);
    expect((await logs(0, session)).status).toBe(401);
  });

  it("refuses a machine revoked on one instance on the other's very next call", async () => {
    const machine = await enrolledMachine(cluster.url);
    const heartbeat = (i: number) =>
      request(on(i, apiPaths.appHeartbeat), {
        method: 'POST',
        headers: { authorization: `Device ${machine.credential}` },
        body: { versionCode: 50, versionName: '1.50.0' },
      });
    // Known good on both: each answers it from memory now (decision 038).
    expect([(await heartbeat(0)).status, (await heartbeat(1)).status]).toEqual([200, 200]);
    const deviceId = machine.client.deviceId!;
    await stepUp(on(0, ''), token);
    const revoked = await request(on(0, apiPaths.machineEnrolmentRevoke(deviceId)), {
      method: 'POST',
      token,
    });
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    expect((await heartbeat(1)).status).toBe(401);
    expect((await heartbeat(0)).status).toBe(401);
    expect(await machine.client.heartbeat(50, '1.50.0').catch((e: { status?: number }) => e.status)).toBe(
      401,
    );
  });

  it('runs each period of a job on one instance only, which both instances list', async () => {
    // Both instances have ticked for the alarm checks every second since they started.
    await sleep(2_000);
    const rows = await cluster.database.query<{
      slot: string;
      state: string;
      retries: number;
      started: boolean;
    }>(
      `select singleton_on::text as slot, state::text as state, retry_count as retries,
         started_on is not null as started
       from pgboss.job where name = 'alarm-checks' order by singleton_on`,
    );
    const slots = rows.map((r) => r.slot);
    expect(slots.length).toBeGreaterThanOrEqual(5);
    // One run per second between the two, each taken once: never retried, never failed.
    expect(new Set(slots).size).toBe(slots.length);
    const done = rows.filter((r) => r.state === 'completed');
    expect(done.length).toBeGreaterThanOrEqual(slots.length - 2);
    expect(done.every((r) => r.retries === 0 && r.started)).toBe(true);
    expect(rows.filter((r) => r.state === 'failed')).toEqual([]);
    // The Jobs screen's API on either instance reads the same runs.
    const jobs = async (i: number) =>
      (await request(on(i, jobsPaths.list), { token })).body!.data as JobsList;
    const [first, second] = [await jobs(0), await jobs(1)];
    const checks = (list: JobsList) => list.jobs.find((job) => job.name === 'alarm checks')!;
    expect(checks(first)).toMatchObject({ failures24h: 0, deadLettered: 0 });
    expect(first.runsHere && second.runsHere).toBe(true);
    // Newest first, ten at most: a run or two may have finished between the two reads.
    const completed = (list: JobsList) =>
      list.runs.filter((r) => r.job === 'alarm checks' && r.state === 'completed').map((r) => r.startedAt);
    expect(completed(first).length).toBeGreaterThanOrEqual(5);
    expect(completed(second)).toEqual(expect.arrayContaining(completed(first).slice(0, 5)));
  });

  let digestMachine: Machine;
  it('loses nothing when one instance is killed -9 mid-batch: the machine sends again, the other stores it once', async () => {
    const machine = (digestMachine = await enrolledMachine(cluster.url));
    // An app below MIN_SUPPORTED_APP_VERSION_CODE: an alarm is open for the digest test below.
    await machine.client.heartbeat(12, '1.12.0');
    // Round robin: after an answer from instance 1, the next request goes to instance 0.
    let probe = await request(lb(apiPaths.health));
    if (probe.upstream !== cluster.upstreams[1]) probe = await request(lb(apiPaths.health));
    expect(probe.upstream).toBe(cluster.upstreams[1]);
    const [cutBatch] = nextBatches(machine, 50);
    const cut = halfSentBatch(cluster.url, machine.credential, cutBatch!);
    await sleep(300);

    const tally: Tally = { acked: new Set(), sent: [], unanswered: [], errors: [] };
    const stop = { now: false };
    const streaming = streamBatches(machine, tally, stop);
    // Twelve rounds of batches, or what fits in 8 s on a busy machine (the half-sent request must
    // not outlast REQUEST_TIMEOUT_MS), then kill -9 of the instance that holds it.
    const until = (ms: number) => Date.now() + ms;
    const killBy = until(8_000);
    while (tally.acked.size < 12 * 28 && Date.now() < killBy && !tally.errors.length) await sleep(20);
    await cluster.instances[0]!.kill('SIGKILL');
    const [sentAtKill, ackedAtKill] = [tally.sent.length, tally.acked.size];
    expect(ackedAtKill).toBeGreaterThan(0);
    // The machine goes on sending through the balancer, which now has instance 1 only.
    const stopBy = until(30_000);
    while (tally.sent.length < sentAtKill + 12 && Date.now() < stopBy && !tally.errors.length)
      await sleep(20);
    stop.now = true;
    await streaming;
    expect(tally.acked.size, 'batches answered after the kill').toBeGreaterThan(ackedAtKill);
    // The half-sent batch was open on the killed instance: nginx answers 502 (the request had
    // reached an instance, so nginx does not pass a POST on to the next one; the machine will).
    expect(await cut.finish()).toEqual({ status: 502, upstream: cluster.upstreams[0] });

    const restarted = await cluster.restart(0);
    expect((await request(`${restarted.url}${apiPaths.health}`)).status).toBe(200);
    // The app's retry: the cut batch, anything unanswered, and every third answered batch again.
    const again = [cutBatch!, ...tally.unanswered, ...tally.sent.filter((_, i) => i % 3 === 0)];
    for (const batch of again) {
      const answer = await sendBatch(machine, batch);
      for (const r of answer.results) if (r.status === 'accepted') tally.acked.add(r.id!);
    }
    expect(tally.errors, 'answers that were neither 200 nor a lost instance').toEqual([]);

    const ids = [...cutBatch!.items, ...tally.sent.flatMap((b) => b.items)].map((item) => item.id);
    const stored = await cluster.database.query<{ id: string; copies: number }>(
      `select client_id::text as id, count(*)::int as copies from (
         select client_id from access_logs union all select client_id from error_logs
         union all select client_id from treatment_records) x
       where client_id = any($1::uuid[]) group by client_id`,
      [ids],
    );
    const copies = new Map(stored.map((r) => [r.id, r.copies]));
    expect(
      ids.filter((id) => !copies.has(id)),
      'items the machine sent that are missing',
    ).toEqual([]);
    expect(
      stored.filter((r) => r.copies > 1),
      'items stored twice',
    ).toEqual([]);
    expect([...tally.acked].every((id) => copies.get(id) === 1)).toBe(true);
  });

  it('sends the alarm digest and a licence reminder once when both instances run the jobs at once', async () => {
    expect(
      (await request(lb(apiPaths.profileAlarmDigest), { method: 'PUT', token, body: { enabled: true } }))
        .status,
    ).toBe(200);
    // A paid monthly subscription for a machine of the fleet: a reminder is due 14 days before it ends.
    const machine = await adminClient(cluster.url).addDevice({
      machineNumber: 'MI-PAID-1',
      serialNumber: 'SN-MI-PAID-1',
      location: 'Paying Clinic',
      latitude: 59.91,
      longitude: 10.75,
      city: 'Oslo',
      country: 'Norway',
      address: 'Gate 2',
    });
    const customer = 'clinic-owner@example.test';
    const added = await request(lb(apiPaths.subscriptionAdd), {
      method: 'POST',
      token,
      body: {
        fullName: 'Clinic Owner',
        email: customer,
        machineSerialNumber: machine.serialNumber,
        amount: 99,
        isRecurring: true,
        planType: 'month',
      },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const subcriptionId = (added.body!.data as { _id: string })._id;
    const checkout = await request(lb(apiPaths.checkout), { method: 'POST', body: { subcriptionId } });
    const { clientSecret } = checkout.body!.data as { clientSecret: string };
    const paid = await request(lb(apiPaths.subscriptionDemoPay), {
      method: 'POST',
      body: { subcriptionId, clientSecret, cardNumber: '4242 4242 4242 4242', expiry: '12/49', cvc: '123' },
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    // The kill test's machine runs an app below the minimum version: an alarm is open.
    expect(digestMachine).toBeDefined();

    // Both clocks to 12:00 UTC twenty-odd days on (well clear of the 07:00 digest hour), at the same
    // moment: each instance then runs every job at once (the clock route), beside the queue's ticks.
    const noon = new Date(Date.now() + 20 * 86_400_000);
    noon.setUTCHours(12, 0, 0, 0);
    const move = (days: number) =>
      Promise.all(
        [0, 1].map((i) => request(on(i, clockControlPath), { method: 'POST', token, body: { days } })),
      );
    const moved = await move((noon.getTime() - Date.now()) / 86_400_000);
    expect(moved.map((m) => m.status)).toEqual([200, 200]);

    const mails = () =>
      cluster.database.query<{ to: string; subject: string }>(
        `select "to", subject from mail_outbox where ("to" = $1 and subject like 'Alarm digest:%')
           or ("to" = $2 and subject like 'Machine %') order by created_at`,
        [hardeningAdmin.email, customer],
      );
    const expected = [
      {
        to: hardeningAdmin.email,
        subject: expect.stringMatching(/^Alarm digest: \d+ alarms? (is|are) open\.$/),
      },
      {
        to: customer,
        subject: expect.stringMatching(
          new RegExp(`^Machine ${machine.serialNumber}: your subscription renews on `),
        ),
      },
    ];
    expect(await mails()).toEqual(expect.arrayContaining(expected));
    expect(await mails()).toHaveLength(2);
    // More runs on both, by the clock route and the queue's ticks, send nothing more (the clock
    // ended the session: sign in again).
    await sleep(2_000);
    token = await login(cluster.url);
    expect((await move(0.01)).map((m) => m.status)).toEqual([200, 200]);
    expect(await mails()).toHaveLength(2);
    // As the Outbox screen shows them through the balancer: one of each.
    const outbox = async (search: string) =>
      (await request(lb(`${outboxPaths.list}?search=${encodeURIComponent(search)}`), { token })).body!
        .data as OutboxList;
    expect((await outbox(`Machine ${machine.serialNumber}`)).total).toBe(1);
    expect((await outbox('Alarm digest')).total).toBe(1);
  });
});
