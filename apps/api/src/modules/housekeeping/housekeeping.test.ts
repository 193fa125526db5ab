import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@app/contract/paths';
import { passwordResets } from '#api/db/schema/account.ts';
import { doctors } from '#api/db/schema/devices.ts';
import { appSessions, deviceCredentials, enrolmentCodes } from '#api/db/schema/device-api.ts';
import { accessLogs, errorLogs } from '#api/db/schema/logs.ts';
import { mailOutbox } from '#api/db/schema/mail.ts';
import { processedPaymentEvents } from '#api/db/schema/subscriptions.ts';
import { devices } from '#api/db/schema/devices.ts';
import { sessions, users } from '#api/db/schema/users.ts';
import {
  createDoctor,
  deviceInject,
  enrolDevice,
  issueEnrolmentCode,
  signInOnDevice,
} from '#api/test/device-fixtures.ts';
import { createTestApp, testAdmin, type TestApp } from '#api/test/test-app.ts';
import { createHousekeeping, type Removed } from './housekeeping-service.ts';

/*
 * Retention of housekeeping rows (issue 36 item 4, decision 072): ended sessions, spent resets and
 * codes, old mail and old payment events go; what is live, recent, or still read by a feature stays,
 * and so does everything they point at and every audit row.
 */

const day = 86_400_000;
const hex = () => randomBytes(8).toString('hex');
const nothing: Removed = {
  sessions: 0,
  appSessions: 0,
  passwordResets: 0,
  enrolmentCodes: 0,
  mail: 0,
  paymentEvents: 0,
};

async function idsOf(t: TestApp, table: PgTable, id: PgColumn): Promise<Set<string>> {
  const rows = await t.database.db.select({ id }).from(table);
  return new Set(rows.map((r) => String(r.id)));
}
const minus = (a: Set<string>, b: Set<string>) => new Set([...a].filter((x) => !b.has(x)));

/** The six tables the job keeps, each as its ids. */
const tables = {
  sessions: [sessions, sessions.id],
  appSessions: [appSessions, appSessions.id],
  passwordResets: [passwordResets, passwordResets.id],
  enrolmentCodes: [enrolmentCodes, enrolmentCodes.id],
  mail: [mailOutbox, mailOutbox.id],
  paymentEvents: [processedPaymentEvents, processedPaymentEvents.id],
} as const;
type Kind = keyof typeof tables;
async function snapshot(t: TestApp): Promise<Record<Kind, Set<string>>> {
  const out = {} as Record<Kind, Set<string>>;
  for (const [kind, [table, id]] of Object.entries(tables)) out[kind as Kind] = await idsOf(t, table, id);
  return out;
}

/** A housekeeping run on the test app's database and clock, with the app's settings. */
function housekeepingOf(t: TestApp, over: { batchSize?: number; lines?: object[] } = {}) {
  return createHousekeeping({
    db: t.database.db,
    now: () => t.clock.now,
    log: { info: (fields) => over.lines?.push(fields) },
    config: t.config.housekeeping,
    mailMaxAttempts: t.config.mailMaxAttempts,
    batchSize: over.batchSize,
  });
}

const adminId = async (t: TestApp) =>
  (await t.database.db.select({ id: users.id }).from(users).where(eq(users.email, testAdmin.email)))[0]!.id;

describe('the housekeeping job, after time has passed', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** What a console admin, a machine and a doctor on it leave behind in a day's work. */
  async function aDaysWork(
    deviceId: string,
    credential: string,
    doctor: { userName: string; password: string },
  ) {
    const signedOut = await t.login();
    expect((await t.injectAs(signedOut, { method: 'POST', url: apiPaths.logout })).statusCode).toBe(200);
    await t.login(); // left to run out
    await t.app.inject({ method: 'POST', url: apiPaths.forgotPassword, payload: { email: testAdmin.email } });
    await t.app.account.idle();
    await t.app.mailer.idle();
    await issueEnrolmentCode(t, deviceId); // never used
    const onMachine = await signInOnDevice(t, credential, doctor.userName, doctor.password);
    const out = await deviceInject(t, credential, { method: 'POST', url: apiPaths.appLogout }, onMachine);
    expect(out.statusCode, out.body).toBe(200);
    const live = await signInOnDevice(t, credential, doctor.userName, doctor.password); // left to lapse
    await t.database.db
      .insert(processedPaymentEvents)
      .values({ id: `evt_${hex()}`, type: 'invoice.paid', processedAt: t.clock.now });
    return live;
  }

  it('removes what the first days left and keeps what is recent, what they point at and the audit trail', async () => {
    const machine = await enrolDevice(t);
    const doctor = await createDoctor(t, machine.deviceId);
    await aDaysWork(machine.deviceId, machine.credential, doctor);
    const old = await snapshot(t);
    for (const kind of Object.keys(old) as Kind[]) expect(old[kind].size, kind).toBeGreaterThan(0);

    // Past every limit: a console session's 30 days, the week after an end, mail's and events' 30 days.
    t.clock.advance(40 * day);
    const onMachine = await aDaysWork(machine.deviceId, machine.credential, doctor);
    const all = await snapshot(t);
    const current = Object.fromEntries(
      (Object.keys(all) as Kind[]).map((kind) => [kind, minus(all[kind], old[kind])]),
    ) as Record<Kind, Set<string>>;
    const audit = {
      access: await idsOf(t, accessLogs, accessLogs.id),
      error: await idsOf(t, errorLogs, errorLogs.id),
    };

    await t.app.runJobsNow(); // the module's job, as the timer runs it

    const after = await snapshot(t);
    for (const kind of Object.keys(after) as Kind[]) {
      expect(
        [...after[kind]].filter((id) => old[kind].has(id)),
        `${kind}: old rows left`,
      ).toEqual([]);
      expect(minus(current[kind], after[kind]), `${kind}: current rows removed`).toEqual(new Set());
    }
    // What the removed rows pointed at is all still there.
    expect(await idsOf(t, users, users.id)).toContain(await adminId(t));
    expect(await idsOf(t, devices, devices.id)).toContain(machine.deviceId);
    expect(await idsOf(t, doctors, doctors.id)).toContain(doctor.id);
    expect(
      (
        await t.database.db
          .select()
          .from(deviceCredentials)
          .where(eq(deviceCredentials.deviceId, machine.deviceId))
      ).length,
    ).toBe(1);
    // Not one audit row is gone.
    expect(minus(audit.access, await idsOf(t, accessLogs, accessLogs.id))).toEqual(new Set());
    expect(minus(audit.error, await idsOf(t, errorLogs, errorLogs.id))).toEqual(new Set());

    // The live sessions still work: the console's and the machine's.
    const token = await t.login();
    expect((await t.injectAs(token, { method: 'GET', url: apiPaths.session })).statusCode).toBe(200);
    const me = await deviceInject(t, machine.credential, { method: 'GET', url: apiPaths.appMe }, onMachine);
    expect(me.statusCode, me.body).toBe(200);
    expect(await housekeepingOf(t).run()).toEqual(nothing);
  });
});

describe('each kind’s rule', () => {
  let t: TestApp;
  let userId: string;
  let deviceId: string;
  let credentialId: string;
  beforeAll(async () => {
    t = await createTestApp();
    userId = await adminId(t);
    const machine = await enrolDevice(t);
    deviceId = machine.deviceId;
    credentialId = (
      await t.database.db
        .select({ id: deviceCredentials.id })
        .from(deviceCredentials)
        .where(eq(deviceCredentials.deviceId, deviceId))
    )[0]!.id;
  });
  afterAll(() => t.close());

  const ago = (days: number) => new Date(t.clock.now.getTime() - days * day);

  it('removes exactly the rows past their rule, once', async () => {
    const db = t.database.db;
    const before = await snapshot(t);
    const session = (createdDaysAgo: number, endsDaysAgo: number, revokedDaysAgo?: number) => ({
      userId,
      createdAt: ago(createdDaysAgo),
      lastSeenAt: ago(createdDaysAgo),
      expiresAt: ago(endsDaysAgo),
      revokedAt: revokedDaysAgo === undefined ? null : ago(revokedDaysAgo),
    });
    const gone = {
      sessions: await db
        .insert(sessions)
        .values([session(31, 30.5), session(40, 39, 8)])
        .returning({ id: sessions.id }),
      appSessions: [] as { id: string }[],
      passwordResets: [] as { id: string }[],
      enrolmentCodes: [] as { id: string }[],
      mail: [] as { id: string }[],
      paymentEvents: [] as { id: string }[],
    };
    const kept = {
      sessions: await db
        .insert(sessions)
        .values([
          // Ended long ago but opened within 30 days: the known-address check and the dashboard read it.
          session(29, 28.5),
          // Opened 31 days ago on a 30-day sign-in, ended a day ago: within the week's grace.
          session(31, 1),
          // Signed out 6 days ago.
          session(31, 1, 6),
          session(0, -0.5),
        ])
        .returning({ id: sessions.id }),
      appSessions: [] as { id: string }[],
      passwordResets: [] as { id: string }[],
      enrolmentCodes: [] as { id: string }[],
      mail: [] as { id: string }[],
      paymentEvents: [] as { id: string }[],
    };

    const appSession = (refreshEndsDaysAgo: number, revokedDaysAgo?: number) => ({
      deviceId,
      credentialId,
      accessHash: hex(),
      accessExpiresAt: ago(refreshEndsDaysAgo + 29.99),
      refreshHash: hex(),
      refreshExpiresAt: ago(refreshEndsDaysAgo),
      createdAt: ago(refreshEndsDaysAgo + 30),
      revokedAt: revokedDaysAgo === undefined ? null : ago(revokedDaysAgo),
    });
    gone.appSessions = await db
      .insert(appSessions)
      .values([appSession(8), appSession(-20, 8)])
      .returning({ id: appSessions.id });
    kept.appSessions = await db
      .insert(appSessions)
      .values([appSession(6), appSession(-20, 6), appSession(-29)])
      .returning({ id: appSessions.id });

    const reset = (otpEndsDaysAgo: number, tokenEndsDaysAgo?: number, voidedDaysAgo?: number) => ({
      userId,
      otpHash: hex(),
      otpExpiresAt: ago(otpEndsDaysAgo),
      tokenHash: tokenEndsDaysAgo === undefined ? null : hex(),
      tokenExpiresAt: tokenEndsDaysAgo === undefined ? null : ago(tokenEndsDaysAgo),
      voidedAt: voidedDaysAgo === undefined ? null : ago(voidedDaysAgo),
      createdAt: ago(otpEndsDaysAgo + 0.01),
    });
    gone.passwordResets = await db
      .insert(passwordResets)
      .values([reset(8), reset(9, 8.9), reset(20, undefined, 20)])
      .returning({ id: passwordResets.id });
    kept.passwordResets = await db
      .insert(passwordResets)
      // A verified code whose reset token ran out only 6 days ago; a voided one, 6 days ago; a live one.
      .values([reset(8, 6), reset(6, undefined, 6), reset(-0.005)])
      .returning({ id: passwordResets.id });

    const code = (expiredDaysAgo: number, used?: boolean) => ({
      deviceId,
      codeHash: hex(),
      createdAt: ago(expiredDaysAgo + 1),
      expiresAt: ago(expiredDaysAgo),
      usedAt: used ? ago(expiredDaysAgo + 0.5) : null,
    });
    gone.enrolmentCodes = await db
      .insert(enrolmentCodes)
      .values([code(8), code(30, true)])
      .returning({ id: enrolmentCodes.id });
    kept.enrolmentCodes = await db
      .insert(enrolmentCodes)
      .values([code(6, true), code(-0.5)])
      .returning({ id: enrolmentCodes.id });

    const mail = (
      status: 'pending' | 'sent' | 'failed' | 'logged',
      createdDaysAgo: number,
      over: { sentDaysAgo?: number; attempts?: number; retryInDays?: number } = {},
    ) => ({
      to: 'someone@example.test',
      subject: 'Subject',
      text: 'Text',
      status,
      createdAt: ago(createdDaysAgo),
      sentAt: over.sentDaysAgo === undefined ? null : ago(over.sentDaysAgo),
      attempts: over.attempts ?? 0,
      nextAttemptAt: over.retryInDays === undefined ? null : ago(-over.retryInDays),
    });
    const maxTries = t.config.mailMaxAttempts;
    gone.mail = await db
      .insert(mailOutbox)
      .values([
        mail('sent', 31, { sentDaysAgo: 31, attempts: 1 }),
        mail('logged', 45),
        // Given up: no next try, or as many tries as MAIL_MAX_ATTEMPTS allows.
        mail('failed', 31, { attempts: maxTries }),
        mail('failed', 31, { attempts: maxTries, retryInDays: -1 }),
      ])
      .returning({ id: mailOutbox.id });
    kept.mail = await db
      .insert(mailOutbox)
      .values([
        mail('sent', 29, { sentDaysAgo: 29, attempts: 1 }),
        // Made 31 days ago, sent (after Send again) 29 days ago: its 30 days run from the sending.
        mail('sent', 31, { sentDaysAgo: 29, attempts: 1 }),
        mail('logged', 1),
        // Still being tried: nothing may lose a message on its way.
        mail('failed', 31, { attempts: 2, retryInDays: 0.01 }),
        mail('pending', 31, { retryInDays: 0.001 }),
      ])
      .returning({ id: mailOutbox.id });

    const event = (daysAgo: number) => ({
      id: `evt_${hex()}`,
      type: 'invoice.paid',
      processedAt: ago(daysAgo),
    });
    gone.paymentEvents = await db
      .insert(processedPaymentEvents)
      .values([event(31), event(365)])
      .returning({ id: processedPaymentEvents.id });
    kept.paymentEvents = await db
      .insert(processedPaymentEvents)
      .values([event(29), event(0)])
      .returning({ id: processedPaymentEvents.id });

    const lines: object[] = [];
    const housekeeping = housekeepingOf(t, { lines });
    const removed = await housekeeping.run();
    expect(removed).toEqual({
      sessions: 2,
      appSessions: 2,
      passwordResets: 3,
      enrolmentCodes: 2,
      mail: 4,
      paymentEvents: 2,
    });
    expect(lines).toEqual([{ removed }]);

    const after = await snapshot(t);
    for (const kind of Object.keys(after) as Kind[]) {
      const ids = (rows: { id: string }[]) => new Set(rows.map((r) => r.id));
      expect(minus(after[kind], before[kind]), kind).toEqual(ids(kept[kind]));
      for (const id of ids(gone[kind])) expect(after[kind].has(id), `${kind} ${id}`).toBe(false);
    }

    // A second run finds nothing, and says nothing.
    expect(await housekeeping.run()).toEqual(nothing);
    expect(lines).toHaveLength(1);
  });

  it('keeps mail and payment events forever when their period is 0', async () => {
    const db = t.database.db;
    const [oldMail] = await db
      .insert(mailOutbox)
      .values({
        to: 'a@example.test',
        subject: 'S',
        text: 'T',
        status: 'sent',
        createdAt: ago(400),
        sentAt: ago(400),
      })
      .returning({ id: mailOutbox.id });
    const [oldEvent] = await db
      .insert(processedPaymentEvents)
      .values({ id: `evt_${hex()}`, type: 'invoice.paid', processedAt: ago(400) })
      .returning({ id: processedPaymentEvents.id });
    const keepForever = createHousekeeping({
      db,
      now: () => t.clock.now,
      log: { info: () => {} },
      config: { mailRetentionDays: 0, paymentEventRetentionDays: 0 },
      mailMaxAttempts: t.config.mailMaxAttempts,
    });
    expect(await keepForever.run()).toEqual(nothing);
    expect(await idsOf(t, mailOutbox, mailOutbox.id)).toContain(oldMail!.id);
    expect(await idsOf(t, processedPaymentEvents, processedPaymentEvents.id)).toContain(oldEvent!.id);
    // With the defaults (30 days) they go.
    expect(await housekeepingOf(t).run()).toMatchObject({ mail: 1, paymentEvents: 1 });
  });
});

describe('a large backlog', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const ago = (days: number) => new Date(t.clock.now.getTime() - days * day);
  async function backlog(events: number, sessionCount: number) {
    const userId = await adminId(t);
    await t.database.db.insert(processedPaymentEvents).values(
      Array.from({ length: events }, () => ({
        id: `evt_${hex()}`,
        type: 'invoice.paid',
        processedAt: ago(40),
      })),
    );
    await t.database.db.insert(sessions).values(
      Array.from({ length: sessionCount }, () => ({
        userId,
        createdAt: ago(40),
        lastSeenAt: ago(40),
        expiresAt: ago(39.5),
      })),
    );
  }

  it('is removed a batch at a time, past the batch size, until none is left', async () => {
    await backlog(23, 12);
    const recent = await t.database.db
      .insert(processedPaymentEvents)
      .values({ id: `evt_${hex()}`, type: 'invoice.paid', processedAt: ago(1) })
      .returning({ id: processedPaymentEvents.id });
    const housekeeping = housekeepingOf(t, { batchSize: 5 });
    expect(await housekeeping.run()).toEqual({ ...nothing, paymentEvents: 23, sessions: 12 });
    expect(await idsOf(t, processedPaymentEvents, processedPaymentEvents.id)).toEqual(
      new Set([recent[0]!.id]),
    );
    expect(await housekeeping.run()).toEqual(nothing);
  });

  it('is shared between two instances running the job at once, each row removed once', async () => {
    await backlog(41, 17);
    const [a, b] = await Promise.all([
      housekeepingOf(t, { batchSize: 4 }).run(),
      housekeepingOf(t, { batchSize: 4 }).run(),
    ]);
    expect(a.paymentEvents + b.paymentEvents).toBe(41);
    expect(a.sessions + b.sessions).toBe(17);
    expect(await housekeepingOf(t, { batchSize: 4 }).run()).toEqual(nothing);
  });
});
