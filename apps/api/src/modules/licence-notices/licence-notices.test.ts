import { and, asc, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noticeDay } from '@app/contract/licence-notices';
import { rowsOf } from '#api/db/rows-of.ts';
import { devices } from '#api/db/schema/devices.ts';
import { licenceNotices } from '#api/db/schema/licences.ts';
import { mailOutbox } from '#api/db/schema/mail.ts';
import { subscriptionEvents, subscriptions } from '#api/db/schema/subscriptions.ts';
import { secondInstance } from '#api/test/second-instance.ts';
import { startSmtpPeer } from '#api/test/smtp-peer.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import { machineWithSerial, subscriptionRequests } from '../subscriptions/subscription-test-requests.ts';

/*
 * Reminder and dunning mails (issue 34 item 6): LICENCE_REMINDER_DAYS (14 and 3) before the
 * paid-through date, on a failed renewal and on lapse; each at most once per machine, kind and paid
 * period, also with two API instances on one database; every one in the outbox.
 */

const day = 86_400_000;
let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
});
afterAll(() => t.close());

const { add, checkout, pay } = subscriptionRequests(() => ({ t, token }));
const run = () => t.app.licenceNotices.run();
/** Time passes; the admin, whose session may have ended meanwhile, signs in again. */
async function later(ms: number) {
  t.clock.advance(ms);
  token = await t.login();
}

let serial = 0;
/** A machine and its subscription, paid with the demo card (monthly unless one-time). */
async function paidMachine(over: { isRecurring?: boolean } = {}) {
  const serialNumber = `SN-NOTE-${++serial}`;
  const email = `clinic-${serial}@example.test`;
  const deviceId = await machineWithSerial(t, serialNumber);
  const isRecurring = over.isRecurring ?? true;
  const created = await add({
    fullName: 'Clinic Owner',
    email,
    machineSerialNumber: serialNumber,
    amount: 99,
    isRecurring,
    ...(isRecurring ? { planType: 'month' } : {}),
  });
  expect(created.statusCode, created.body).toBe(201);
  const subscriptionId = created.json().data._id as string;
  const { clientSecret } = (await checkout(subscriptionId)).json().data;
  expect((await pay(subscriptionId, clientSecret)).statusCode).toBe(200);
  const [device] = await t.database.db.select().from(devices).where(eq(devices.id, deviceId));
  return { deviceId, subscriptionId, serialNumber, email, paidThrough: device!.licencePaidThrough! };
}

/** The licence mails a customer got (their payment-link mail left out), oldest first. */
const mailsTo = (email: string) =>
  t.database.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.to, email), like(mailOutbox.subject, 'Machine %')))
    .orderBy(asc(mailOutbox.createdAt));
const noticesOf = async (deviceId: string) =>
  (
    await t.database.db
      .select()
      .from(licenceNotices)
      .where(eq(licenceNotices.deviceId, deviceId))
      .orderBy(asc(licenceNotices.sentAt))
  ).map((n) => `${n.kind} ${n.periodKey}`);
/** Moves the clock to `ms` before (negative: after) a moment. */
const until = (moment: Date, ms: number) => later(moment.getTime() - ms - t.clock.now.getTime());
const isoDay = (d: Date) => d.toISOString().slice(0, 10);

describe('reminders before the paid-through date', () => {
  it('sends the 14-day and the 3-day reminder once each, to the customer of the paying subscription', async () => {
    const m = await paidMachine();
    await until(m.paidThrough, 20 * day);
    await run();
    expect(await mailsTo(m.email)).toEqual([]);

    await until(m.paidThrough, 13.5 * day);
    await run();
    await run();
    const [first, ...more] = await mailsTo(m.email);
    expect(more).toEqual([]);
    expect(first!.subject).toBe(
      `Machine ${m.serialNumber}: your subscription renews on ${noticeDay(m.paidThrough)}`,
    );
    expect(first!.text).toContain('Hello Clinic Owner,');
    expect(first!.text).toContain(`paid through ${noticeDay(m.paidThrough)}, 14 days from now`);
    expect(first!.text).toContain('$99.00 will be charged to your card');

    await until(m.paidThrough, 2.5 * day);
    await run();
    await run();
    const mails = await mailsTo(m.email);
    expect(mails).toHaveLength(2);
    expect(mails[1]!.text).toContain('3 days from now');
    expect(await noticesOf(m.deviceId)).toEqual([
      `reminder-14 ${isoDay(m.paidThrough)}`,
      `reminder-3 ${isoDay(m.paidThrough)}`,
    ]);
    // The subscription's timeline shows what was sent.
    const events = await t.database.db
      .select()
      .from(subscriptionEvents)
      .where(
        and(eq(subscriptionEvents.subscriptionId, m.subscriptionId), eq(subscriptionEvents.kind, 'reminded')),
      );
    expect(events.map((e) => e.detail.notice)).toEqual(['reminder-14', 'reminder-3']);
  });

  it('sends only the nearer reminder to a machine paid with less time left than the first', async () => {
    const m = await paidMachine({ isRecurring: false });
    await until(m.paidThrough, 2 * day);
    await run();
    const mails = await mailsTo(m.email);
    expect(mails.map((x) => x.subject)).toEqual([
      `Machine ${m.serialNumber}: your licence ends on ${noticeDay(m.paidThrough)}`,
    ]);
    expect(mails[0]!.text).toContain('It does not renew by itself');
    expect(await noticesOf(m.deviceId)).toEqual([`reminder-3 ${isoDay(m.paidThrough)}`]);
  });

  it('sends none for the old period after a renewal, and counts the new period afresh', async () => {
    const m = await paidMachine();
    await until(m.paidThrough, 13 * day);
    await run();
    expect(await mailsTo(m.email)).toHaveLength(1);

    // The renewal is paid (as invoice.paid does): the machine is paid through a month more.
    const renewed = new Date(m.paidThrough.getTime() + 30 * day);
    await t.database.db
      .update(subscriptions)
      .set({ paidThrough: renewed, expiredAt: renewed })
      .where(eq(subscriptions.id, m.subscriptionId));
    await t.app.licences.recomputeDevice(m.deviceId, 'webhook');

    await until(m.paidThrough, 2 * day);
    await run();
    expect(await mailsTo(m.email)).toHaveLength(1);

    await until(renewed, 13 * day);
    await run();
    expect(await noticesOf(m.deviceId)).toEqual([
      `reminder-14 ${isoDay(m.paidThrough)}`,
      `reminder-14 ${isoDay(renewed)}`,
    ]);
    expect((await mailsTo(m.email))[1]!.subject).toContain(noticeDay(renewed));
  });
});

describe('dunning', () => {
  it('mails the customer once when a renewal fails, with where to pay and until when the machine works', async () => {
    const m = await paidMachine();
    await later(27 * day);
    await t.database.db
      .update(subscriptions)
      .set({ renewalFailedAt: t.clock.now })
      .where(eq(subscriptions.id, m.subscriptionId));
    await t.app.licences.recomputeDevice(m.deviceId, 'webhook');
    const [device] = await t.database.db.select().from(devices).where(eq(devices.id, m.deviceId));
    expect(device!.licenceState).toBe('grace');

    await run();
    await run();
    const mails = await mailsTo(m.email);
    expect(mails.map((x) => x.subject)).toEqual([
      `Machine ${m.serialNumber}: the payment for your subscription failed`,
    ]);
    expect(mails[0]!.text).toContain(
      `The machine keeps working until ${noticeDay(device!.licenceGraceUntil!)}`,
    );
    expect(mails[0]!.text).toContain(`${t.config.publicUrl}/plans/${m.subscriptionId}`);
    // It holds a link to the customer's payment: cleared from the outbox once sent.
    expect(mails[0]!.holdsSecret).toBe(true);
    expect(await noticesOf(m.deviceId)).toEqual([`renewal-failed ${isoDay(m.paidThrough)}`]);
  });

  it('mails the customer once when the licence lapses', async () => {
    const m = await paidMachine({ isRecurring: false });
    await until(m.paidThrough, -15 * day);
    await t.app.licences.sweep();
    await run();
    await run();
    const mails = await mailsTo(m.email);
    expect(mails.map((x) => x.subject)).toEqual([`Machine ${m.serialNumber}: the licence has lapsed`]);
    expect(mails[0]!.text).toContain('starts no new ones until a payment arrives');
    expect(mails[0]!.holdsSecret).toBe(false);
    expect(await noticesOf(m.deviceId)).toEqual([`lapsed ${isoDay(m.paidThrough)}`]);
  });

  it('does not announce a lapse older than a week (a first start on old data)', async () => {
    const m = await paidMachine({ isRecurring: false });
    await until(m.paidThrough, -15 * day);
    await t.app.licences.sweep();
    await t.database.db
      .update(devices)
      .set({ licenceSince: new Date(t.clock.now.getTime() - 8 * day) })
      .where(eq(devices.id, m.deviceId));
    await run();
    expect(await mailsTo(m.email)).toEqual([]);
  });
});

/**
 * Runs both instances' work so that each finds the notice before either has claimed it. PGlite runs
 * one statement at a time in arrival order, so two runs started together interleave by themselves;
 * on PostgreSQL the claims are held back (a lock on the claims table) until both are waiting on it.
 */
async function overlapping<T>(work: () => Promise<T>): Promise<T> {
  if (t.database.kind !== 'postgres') return work();
  let started: Promise<T> | undefined;
  await t.database.db.transaction(async (tx) => {
    await tx.execute(sql`lock table licence_notices in share mode`);
    started = work();
    for (let waited = 0; ; waited += 20) {
      const [row] = rowsOf<{ n: number }>(
        await t.database.db.execute(
          sql`select count(*)::int as n from pg_locks where relation = 'licence_notices'::regclass and not granted`,
        ),
      );
      if (row!.n >= 2) break;
      if (waited > 10_000) throw new Error('the two runs never both reached their claim');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
  return started!;
}

describe('several API instances', () => {
  it('send a reminder once when both run the notices at the same moment', async () => {
    const second = await secondInstance(t);
    try {
      const m = await paidMachine();
      await until(m.paidThrough, 13 * day);
      const [mine, theirs] = await overlapping(() => Promise.all([run(), second.app.licenceNotices.run()]));
      expect(await mailsTo(m.email)).toHaveLength(1);
      expect(await noticesOf(m.deviceId)).toEqual([`reminder-14 ${isoDay(m.paidThrough)}`]);
      expect(mine.length + theirs.length).toBe(1);
      await second.app.licenceNotices.run();
      expect(await mailsTo(m.email)).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it('deliver a reminder through a real SMTP server', async () => {
    const peer = await startSmtpPeer();
    const second = await secondInstance(t, { smtpUrl: peer.url });
    try {
      const m = await paidMachine();
      await until(m.paidThrough, 3 * day);
      const started = await second.app.licenceNotices.run();
      await Promise.all(started.map((s) => s.delivery));
      const mail = await peer.waitFor((x) => x.to.includes(m.email));
      expect(mail.subject).toBe(
        `Machine ${m.serialNumber}: your subscription renews on ${noticeDay(m.paidThrough)}`,
      );
      expect(mail.text).toContain('3 days from now');
      expect((await mailsTo(m.email)).map((x) => x.status)).toEqual(['sent']);
    } finally {
      await second.close();
      await peer.close();
    }
  });
});
