// Property-based fuzzing of every route in the OpenAPI document the API serves: random, boundary,
// wrong-typed, missing, extra, huge, unicode and injection-looking input, as the admin (the clinic
// portal's routes as a clinic's manager, the machines' as a machine), anonymously and with forged
// tokens. The only acceptable answers are 2xx, or 4xx with a `{ code, msg, data }`
// envelope whose msg is a non-empty string; afterwards the database must still be consistent.
//
// FUZZ_RUNS (default 200) sets the cases per route; FUZZ_SEED replays a run.
import fc from 'fast-check';
import { SignJWT } from 'jose';
import { eq, sql } from 'drizzle-orm';
import { users } from '../db/schema/users.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { seedDemoData } from '../demo/seed-demo.ts';
import { createStorage } from '../lib/storage/create-storage.ts';
import { apiPaths } from '@app/contract/paths';
import {
  createDoctor,
  createTechnician,
  deviceInject,
  enrolDevice,
  signInOnDevice,
} from '../test/device-fixtures.ts';
import { createTestApp, testAdmin } from '../test/test-app.ts';
import { createClinicCaller } from './fuzz-clinic-caller.ts';
import { adminFingerprint, checkInvariants } from './invariants.ts';
import {
  operationsOf,
  requestArb,
  type FuzzRequest,
  type OpenApiDocument,
  type Operation,
} from './openapi-requests.ts';
import { newFuzzTally, writeFuzzResult } from './fuzz-result.ts';

const runsPerRoute = Number(process.env.FUZZ_RUNS ?? 200);
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const onPostgres = Boolean(process.env.DATABASE_URL);

// Every case of one route comes from one machine: its rate limit would turn the run into 429s.
// A long-poll for commands would hold each case up to `wait` (50 s): capped to 0, it answers at once
// (waiting itself is commands.test.ts's).
const t = await createTestApp({ DEVICE_RATE_PER_MINUTE: '1000000', DEVICE_LONG_POLL_SECONDS: '0' });
const storage = createStorage(t.config);
await seedDemoData(t.database.db, { storage });
const adminBefore = await adminFingerprint(t.database.db, testAdmin.email);
let token = await t.login();

/*
 * The machines' routes (tag "device") are fuzzed as an enrolled machine with a technician and a
 * doctor signed in on it: the "admin" caller of those routes is the machine. A case may revoke the
 * machine (the console's revoke route) or end a session (logout); the harness enrols or signs in again.
 */
const machine = { device: await enrolDevice(t) };
let technician = await createTechnician(t, [machine.device.deviceId]);
const doctor = await createDoctor(t, machine.device.deviceId);
const appSessions = {
  technician: await signInOnDevice(t, machine.device.credential, technician.userName, technician.password),
  doctor: await signInOnDevice(t, machine.device.credential, doctor.userName, doctor.password),
};
const isDeviceRoute = (url: string) => /^\/api\/v1\/app\/(?!enrol|updates\/)/.test(url);
/** Registering doctors is a technician's job; everything else a person does on the machine, a doctor's. */
const sessionFor = (url: string) =>
  url.startsWith(apiPaths.appDoctors) && !url.startsWith(`${apiPaths.appDoctors}?`)
    ? appSessions.technician
    : appSessions.doctor;
/** Enrols again or signs in again only what a case ended (a refused sign-in or a bad token ends nothing). */
async function restoreMachine() {
  const beat = await deviceInject(t, machine.device.credential, {
    method: 'POST',
    url: apiPaths.appHeartbeat,
    payload: { versionCode: 1, versionName: '1.0.0' },
  });
  const reEnrolled = beat.statusCode === 401;
  if (reEnrolled) machine.device = await enrolDevice(t, machine.device.deviceId);
  // A bulk delete of "all matching" users (decision 055) takes the technician too: add another.
  const [stillThere] = await t.database.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.userName, technician.userName));
  const replaced = !stillThere;
  if (replaced) technician = await createTechnician(t, [machine.device.deviceId]);
  const people = [
    ['technician', technician],
    ['doctor', doctor],
  ] as const;
  for (const [kind, person] of people) {
    const me =
      reEnrolled || (replaced && kind === 'technician')
        ? null
        : await deviceInject(
            t,
            machine.device.credential,
            { method: 'GET', url: apiPaths.appMe },
            appSessions[kind],
          );
    if (me === null || me.statusCode === 401)
      appSessions[kind] = await signInOnDevice(
        t,
        machine.device.credential,
        person.userName,
        person.password,
      );
  }
}
const clinic = await createClinicCaller(t, async () => token);
const forgedTokens = [
  'Bearer not-a-jwt',
  `Bearer ${await new SignJWT({ typ: 'access' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(adminBefore?.id))
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode('x'.repeat(32)))}`,
  // alg "none": must never be accepted.
  `Bearer ${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: adminBefore?.id, typ: 'access' })).toString('base64url')}.`,
  'Basic YWRtaW46YWRtaW4=',
  // A well-formed device credential that was never issued.
  `Device dvc_${'A'.repeat(43)}`,
];

const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as OpenApiDocument;
// Deletions last, so the routes before them still find the rows they could name.
const operations = operationsOf(doc).sort(
  (a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'),
);

/** Ids of real rows (never the seeded admin's: renaming or deleting the admin is not what we test here). */
async function knownIds(): Promise<string[]> {
  const q = sql`select id::text as id from devices union all select id::text from doctors union all select id::text from patients
    union all select id::text from technicians union all select id::text from treatment_records union all select id::text from roles
    union all select id::text from users where lower(email) <> lower(${testAdmin.email}) union all select id from subscriptions
    union all select id::text from app_updates union all select id::text from customers`;
  const { rows } = (await t.database.db.execute(q)) as unknown as { rows: Array<{ id: string }> };
  // A sample keeps the generator small; enough ids of every kind to reach the handlers.
  return rows.filter((_, i) => i % 7 === 0).map((r) => r.id);
}
const known = { ids: await knownIds() };

const tally = newFuzzTally();
/** The audit writer's lost-row count after the last route. */
let auditLost = 0;
const problems: string[] = [];
/** CPU seconds per route (this process, argon2's threads included): where the CI budget goes. */
const cpuByRoute = new Map<string, number>();
const cpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const cpuAtStart = cpuSeconds();

/**
 * Public pages a customer's browser opens (the demo provider's receipt at its unguessable id): their
 * 4xx is a page a person reads, not the API's envelope.
 */
const htmlPageUrl = /^\/api\/v1\/receipts\/[^/?]*$/;

/** Why an answer is unacceptable, or null when it is fine. */
function verdict(status: number, body: string, url: string, contentType: string): string | null {
  if (status >= 200 && status < 300) return null;
  // Such a page's own 404 is HTML; what the server refuses before it (a bad header) is the envelope.
  const page = htmlPageUrl.test(url.split('?')[0]!) && contentType.startsWith('text/html');
  if (status >= 400 && status < 500 && page) return body.includes('</html>') ? null : `${status} half a page`;
  if (status >= 400 && status < 500) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return `${status} whose body is not JSON`;
    }
    const e = parsed as { code?: unknown; msg?: unknown; data?: unknown } | null;
    if (!e || typeof e !== 'object' || !('code' in e) || !('data' in e))
      return `${status} without the { code, msg, data } envelope`;
    if (typeof e.msg !== 'string' || e.msg.trim() === '') return `${status} without a msg`;
    return null;
  }
  return `status ${status}`;
}

const brief = (r: FuzzRequest) =>
  JSON.stringify({
    ...r,
    url: r.url.slice(0, 300),
    payload: r.payload === undefined ? undefined : String(r.payload).slice(0, 300),
  });

async function send(r: FuzzRequest) {
  const headers = { ...r.headers };
  const onMachine = isDeviceRoute(r.url);
  if (r.caller === 'admin' && onMachine) {
    headers.authorization = `Device ${machine.device.credential}`;
    headers['x-app-session'] = sessionFor(r.url).accessToken;
  } else if (r.caller === 'admin' && clinic.isClinicRoute(r.url))
    headers.authorization = `Bearer ${clinic.token()}`;
  else if (r.caller === 'admin') headers.authorization = `Bearer ${token}`;
  if (r.caller === 'forged')
    headers.authorization = forgedTokens[r.remoteAddress.length % forgedTokens.length]!;
  const res = await t.app.inject({
    method: r.method as 'GET',
    url: r.url,
    headers,
    payload: r.payload,
    remoteAddress: r.remoteAddress,
  });
  tally.cases++;
  const s = res.statusCode;
  if (s >= 200 && s < 300) tally.s2xx++;
  else if (s >= 400 && s < 500) tally.s4xx++;
  else if (s >= 500) tally.s5xx++;
  else tally.other++;
  const problem = verdict(s, res.body, r.url, String(res.headers['content-type'] ?? ''));
  if (problem && s < 500) tally.badEnvelope++;
  if (r.caller === 'admin' && onMachine && s === 401) {
    await restoreMachine();
    tally.reSignIns++;
  } else if (r.caller === 'admin' && clinic.isClinicRoute(r.url) && s === 401) {
    if (await clinic.restore()) tally.reSignIns++;
  } else if (r.caller === 'admin' && s === 401) {
    // A case may legitimately end the admin's session (logout, password change); sign in again.
    const check = await t.injectAs(token, { method: 'GET', url: '/api/v1/admin/profile' });
    if (check.statusCode === 401) {
      token = await t.login();
      tally.reSignIns++;
    }
  }
  return { problem, status: s, body: res.body };
}

async function invariantsHold(after: string) {
  const results = await checkInvariants(t.database.db, storage);
  tally.invariantRuns++;
  tally.invariantQueries += results.length;
  for (const r of results)
    if (r.violations.length)
      problems.push(`after ${after}: ${r.name}: ${JSON.stringify(r.violations.slice(0, 3))}`);
  return results.filter((r) => r.violations.length).map((r) => r.name);
}

afterAll(async () => {
  const adminAfter = await adminFingerprint(t.database.db, testAdmin.email);
  let signIn = 'ok';
  try {
    await t.login();
  } catch (e) {
    signIn = String(e);
  }
  const broken = await invariantsHold('the whole run');
  const adminUnchanged = JSON.stringify(adminAfter) === JSON.stringify(adminBefore);
  const passed =
    problems.length === 0 &&
    broken.length === 0 &&
    signIn === 'ok' &&
    adminUnchanged &&
    tally.routesDone === operations.length;
  writeFuzzResult({
    passed,
    onPostgres,
    operations: operations.length,
    runsPerRoute,
    seed,
    tally,
    problems,
    signedIn: signIn === 'ok' && adminUnchanged,
    cpuSeconds: cpuSeconds() - cpuAtStart,
    cpuByRoute,
  });
  await t.close();
});

describe(`fuzz (${runsPerRoute} cases per route, seed ${seed})`, () => {
  operations.forEach((op: Operation, index) => {
    it(`${op.method} ${op.path} answers 2xx or a 4xx envelope, and the database stays consistent`, async () => {
      const failures = new Map<string, string>();
      const cpuBefore = cpuSeconds();
      await fc.assert(
        fc.asyncProperty(requestArb(op, known), async (r) => {
          const { problem, status, body } = await send(r);
          // Collected, not thrown: one run shows every distinct failure of the route at once.
          if (problem && !failures.has(problem))
            failures.set(problem, `${brief(r)} -> ${status} ${body.slice(0, 300)}`);
        }),
        { numRuns: runsPerRoute, seed: seed + index, endOnFailure: true },
      );
      cpuByRoute.set(`${op.method} ${op.path}`, cpuSeconds() - cpuBefore);
      for (const [problem, example] of failures)
        problems.push(`${op.method} ${op.path}: ${problem}: ${example}`);
      const broken = await invariantsHold(`${op.method} ${op.path}`);
      // Every case's audit rows reached the database: none refused, none left waiting.
      await t.app.audit.flush();
      const audit = t.app.audit.stats();
      const lostHere = audit.dropped - auditLost;
      auditLost = audit.dropped;
      tally.auditLost += lostHere + audit.buffered;
      if (audit.buffered || lostHere)
        problems.push(`audit rows of ${op.method} ${op.path}: ${audit.buffered} waiting, ${lostHere} lost`);
      tally.routesDone++;
      expect([...failures.entries()].map(([p, ex]) => `${p}: ${ex}`)).toEqual([]);
      expect(broken).toEqual([]);
      expect({ waiting: audit.buffered, lost: lostHere }).toEqual({ waiting: 0, lost: 0 });
    });
  });
});
