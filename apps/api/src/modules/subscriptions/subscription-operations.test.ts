import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { licencePaths } from '@app/contract/licences';
import { permissionMessages } from '@app/contract/permissions';
import {
  subscriptionOperationMessages as messages,
  subscriptionOperationPaths as paths,
} from '@app/contract/subscription-operations';
import { checkoutMessages } from '@app/contract/subscriptions';
import { mailOutbox } from '#api/db/schema/mail.ts';
import { signInWithPermissions } from '#api/test/admin-with-permissions.ts';
import { createTestApp, testAdmin, type TestApp } from '#api/test/test-app.ts';
import { contentHashOf } from '../signatures/canonical-json.ts';
import { machineWithSerial, subscriptionRequests } from './subscription-test-requests.ts';

/*
 * The subscription page's operations with the demo provider (issue 34 item 5), on PGlite and on
 * PostgreSQL (DATABASE_URL): each refused without its permission (403), on bad input (400 naming the
 * field) and where the subscription's state does not fit (409); done, each writes its timeline event
 * and derives the machine's licence again.
 */

const day = 86_400_000;
/** Extending is signed with the first admin's password (decision 083). */
const signature = { meaning: 'responsibility', password: testAdmin.password } as const;
let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
});
afterAll(() => t.close());

const { add, checkout, pay, rowOf } = subscriptionRequests(() => ({ t, token }));
const post = (url: string, payload?: object, as = token) =>
  t.injectAs(as, { method: 'POST', url, ...(payload ? { payload } : {}) });
const detailOf = async (id: string) => {
  const res = await t.injectAs(token, { method: 'GET', url: paths.detail(id) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
};
const kinds = async (id: string) => ((await detailOf(id)).timeline as { kind: string }[]).map((e) => e.kind);
/** The newest event of this kind on the page's timeline. */
const eventOf = (detail: { timeline: { kind: string }[] }, kind: string) =>
  detail.timeline.find((e) => e.kind === kind);
const licenceOf = async (deviceId: string) =>
  (await t.injectAs(token, { method: 'GET', url: licencePaths.deviceLicence(deviceId) })).json().data;
const isoDay = (ms: number) => new Date(t.clock.now.getTime() + ms).toISOString().slice(0, 10);
async function later(ms: number) {
  t.clock.advance(ms);
  token = await t.login();
}

let serial = 0;
async function subscription(over: { isRecurring?: boolean; paid?: boolean; card?: string } = {}) {
  const serialNumber = `SN-OPS-${++serial}`;
  const deviceId = await machineWithSerial(t, serialNumber);
  const recurring = over.isRecurring ?? true;
  const res = await add({
    fullName: 'Clinic Owner',
    email: `owner${serial}@example.test`,
    machineSerialNumber: serialNumber,
    amount: 99,
    isRecurring: recurring,
    ...(recurring ? { planType: 'month' } : {}),
  });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().data._id as string;
  if (over.paid ?? true) {
    const { clientSecret } = (await checkout(id)).json().data;
    const paid = await pay(id, clientSecret, over.card ? { cardNumber: over.card } : {});
    expect(paid.statusCode, paid.body).toBe(200);
  }
  return { id, deviceId, email: `owner${serial}@example.test` };
}

describe('permissions', () => {
  it('refuses each operation without its permission (403 naming it), and reads with subscriptions.view', async () => {
    const { id } = await subscription();
    const viewer = await signInWithPermissions(t, token, ['subscriptions.view']);
    const manager = await signInWithPermissions(t, token, ['subscriptions.view', 'subscriptions.manage']);
    expect((await t.injectAs(viewer.token, { method: 'GET', url: paths.detail(id) })).statusCode).toBe(200);
    for (const [url, body] of [
      [paths.resend(id)],
      [paths.revoke(id)],
      [paths.resume(id)],
      [paths.cancel(id), { when: 'now' }],
      [paths.retry(id)],
      [paths.cardUpdate(id)],
    ] as const) {
      const res = await post(url, body, viewer.token);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().msg).toBe(permissionMessages.missing('subscriptions.manage'));
    }
    for (const [url, body] of [
      [paths.extend(id), { paidThrough: isoDay(60 * day), reason: 'Goodwill', signature }],
      [paths.grace(id), { until: isoDay(40 * day), reason: 'Goodwill' }],
    ] as const) {
      const res = await post(url, body, manager.token);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().msg).toBe(permissionMessages.missing('licences.manage'));
    }
  });
});

describe('the subscription page', () => {
  it('shows the details, the machine, the payment with its demo receipt, and the timeline', async () => {
    const { id, deviceId } = await subscription();
    const detail = await detailOf(id);
    expect(detail.subscription).toMatchObject({ _id: id, status: 2, isRecurring: true });
    expect(detail.machine).toMatchObject({ _id: deviceId, licenceState: 'active' });
    expect(detail.plan).toMatchObject({ provider: 'demo', cardLast4: '4242', collectionPaused: false });
    expect(detail.timeline.map((e: { kind: string }) => e.kind).sort()).toEqual([
      'created',
      'mailed',
      'paid',
    ]);
    expect(detail.timeline.find((e: { kind: string }) => e.kind === 'created').actor).toBe(
      'admin@example.com',
    );
    expect(detail.operations).toMatchObject({ resend: false, revoke: false, extend: true, cancel: true });
    expect(detail.payments).toHaveLength(1);
    const receiptUrl = detail.payments[0].receiptUrl as string;
    expect(receiptUrl).toBe(`${t.config.publicUrl}${paths.demoReceipt(detail.payments[0]._id)}`);
    expect(detail.payments[0]._id).toMatch(/^[\w-]{24}$/);

    const receipt = await t.injectAs(token, {
      method: 'GET',
      url: paths.receipt(id, detail.payments[0]._id),
    });
    expect(receipt.json().data.url).toBe(receiptUrl);
    const page = await t.app.inject({ method: 'GET', url: paths.demoReceipt(detail.payments[0]._id) });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('$99.00 USD');
    expect(page.body).toContain('no money moved');
    expect((await t.app.inject({ method: 'GET', url: paths.demoReceipt('x'.repeat(24)) })).statusCode).toBe(
      404,
    );
    expect((await t.injectAs(token, { method: 'GET', url: paths.detail('nope') })).statusCode).toBe(404);
  });
});

describe('the link', () => {
  it('resends an unpaid link (another mail, a later expiry), and refuses a paid one', async () => {
    const { id, email } = await subscription({ paid: false });
    const before = (await rowOf(id)).expiredAt;
    await later(3 * day);
    const res = await post(paths.resend(id));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().msg).toBe(messages.resent);
    expect((await rowOf(id)).expiredAt.getTime()).toBeGreaterThan(before.getTime());
    expect(await t.database.db.$count(mailOutbox, eq(mailOutbox.to, email))).toBe(2);
    expect(await kinds(id)).toContain('resent');

    const paid = await subscription();
    const refused = await post(paths.resend(paid.id));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().msg).toBe(messages.alreadyPaid);
  });

  it('revokes an unpaid link: the customer can no longer pay it; a paid link is never paid again', async () => {
    const { id, deviceId } = await subscription({ paid: false });
    const { clientSecret } = (await checkout(id)).json().data;
    const res = await post(paths.revoke(id), { reason: 'Wrong amount' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.plan.revokedAt).not.toBeNull();
    expect((await pay(id, clientSecret)).statusCode).toBe(409);
    expect((await checkout(id)).statusCode).toBe(409);
    expect(eventOf(await detailOf(id), 'revoked')).toMatchObject({
      kind: 'revoked',
      detail: { reason: 'Wrong amount' },
    });
    expect((await licenceOf(deviceId)).state).toBe('unlicensed');
    expect((await post(paths.revoke(id))).json().msg).toBe(messages.revoked);

    const paid = await subscription({ isRecurring: false });
    expect((await post(paths.revoke(paid.id))).statusCode).toBe(409);
    const again = await checkout(paid.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().msg).toBe(checkoutMessages.paid);
  });

  it('names the field of a bad body', async () => {
    const { id } = await subscription({ paid: false });
    const res = await post(paths.revoke(id), { reason: 'x'.repeat(501) });
    expect(res.statusCode).toBe(400);
    expect(res.json().data.errors[0].path).toBe('reason');
  });
});

describe('time without payment', () => {
  it('extends the paid-through date with a reason, signed: a lapsed machine is active again', async () => {
    const { id, deviceId } = await subscription({ isRecurring: false });
    await later(400 * day);
    await t.app.licences.sweep();
    expect((await licenceOf(deviceId)).state).toBe('lapsed');

    const body = { paidThrough: isoDay(30 * day), reason: 'Service credit', signature };
    // The signature is the confirmation (decision 083): a session that has not stepped up lately
    // is not asked for one; a wrong password is refused under its field, and nothing is extended.
    const fresh = await t.loginWithoutStepUp();
    const wrong = await post(
      paths.extend(id),
      { ...body, signature: { ...signature, password: 'Not-The-Passw0rd' } },
      fresh,
    );
    expect([wrong.statusCode, wrong.json().data.errors]).toEqual([
      400,
      [{ path: 'signature.password', message: 'Password is incorrect' }],
    ]);
    const unsigned = await post(paths.extend(id), { paidThrough: body.paidThrough, reason: body.reason });
    expect(unsigned.json().data.errors).toEqual([{ path: 'signature', message: 'Signature is required' }]);
    expect(await kinds(id)).not.toContain('extended');

    const missing = await post(paths.extend(id), { paidThrough: body.paidThrough, signature });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().data.errors[0].path).toBe('reason');
    const bad = await post(paths.extend(id), { ...body, paidThrough: '2020-13-01' });
    expect(bad.json().data.errors[0].path).toBe('paidThrough');
    const earlier = await post(paths.extend(id), { ...body, paidThrough: isoDay(-300 * day) });
    expect(earlier.statusCode).toBe(400);
    expect(earlier.json()).toMatchObject({
      msg: messages.paidThroughNotLater,
      data: { errors: [{ path: 'paidThrough' }] },
    });

    const res = await post(paths.extend(id), body, fresh);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.plan.paidThrough).toBe(`${body.paidThrough}T23:59:59.999Z`);
    expect(res.json().data.machine.licenceState).toBe('active');
    const extended = eventOf(res.json().data, 'extended') as unknown as { detail: Record<string, string> };
    expect(extended).toMatchObject({
      kind: 'extended',
      actor: 'admin@example.com',
      detail: { reason: 'Service credit' },
    });
    // The timeline's event shows its signature, bound to the subscription, the dates and the reason.
    expect(extended).toMatchObject({
      signature: {
        id: extended.detail.signatureId,
        signerEmail: 'admin@example.com',
        meaning: 'responsibility',
        signedAt: t.clock.now.toISOString(),
        contentHash: contentHashOf({
          subscriptionId: id,
          email: (await rowOf(id)).email,
          from: extended.detail.from,
          paidThrough: `${body.paidThrough}T23:59:59.999Z`,
          reason: 'Service credit',
        }),
      },
    });
    expect(eventOf(res.json().data, 'created')).not.toHaveProperty('signature');
    expect(
      (await licenceOf(deviceId)).events.find((e: { cause: string }) => e.cause === 'admin'),
    ).toMatchObject({
      toState: 'active',
      cause: 'admin',
      reason: 'Service credit',
    });
  });

  it("grants grace to a lapsed machine and pauses a plan's collection; resumes it", async () => {
    const { id, deviceId } = await subscription();
    await later(60 * day);
    await t.app.licences.sweep();
    expect((await licenceOf(deviceId)).state).toBe('lapsed');
    const past = await post(paths.grace(id), { until: isoDay(-day), reason: 'Waiting for the bank' });
    expect(past.json()).toMatchObject({ msg: messages.untilPast, data: { errors: [{ path: 'until' }] } });
    expect((await post(paths.grace(id), { reason: 'x' })).json().data.errors[0].path).toBe('until');

    const res = await post(paths.grace(id), { until: isoDay(10 * day), reason: 'Waiting for the bank' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.plan).toMatchObject({ collectionPaused: true });
    expect(res.json().data.machine.licenceState).toBe('grace');
    expect(eventOf(res.json().data, 'grace')).toMatchObject({
      kind: 'grace',
      detail: { reason: 'Waiting for the bank' },
    });

    const resumed = await post(paths.resume(id));
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect(resumed.json().data.plan.collectionPaused).toBe(false);
    expect(eventOf(resumed.json().data, 'resumed')).toBeDefined();
    expect((await post(paths.resume(id))).json().msg).toBe(messages.notPaused);
  });
});

describe('a recurring plan', () => {
  it('cancels at the period end (still licensed), or now (into grace); refuses a bad when', async () => {
    const a = await subscription();
    const bad = await post(paths.cancel(a.id), { when: 'tomorrow' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.errors[0].path).toBe('when');

    const atEnd = await post(paths.cancel(a.id), { when: 'period-end', reason: 'Returning the machine' });
    expect(atEnd.statusCode, atEnd.body).toBe(200);
    expect(atEnd.json().data.plan.cancelAtPeriodEnd).toBe(true);
    expect(atEnd.json().data.machine.licenceState).toBe('active');
    expect((await post(paths.cancel(a.id), { when: 'period-end' })).json().msg).toBe(
      messages.alreadyCancelled,
    );

    const b = await subscription();
    const now = await post(paths.cancel(b.id), { when: 'now' });
    expect(now.statusCode, now.body).toBe(200);
    expect(now.json().data).toMatchObject({
      subscription: { status: 3 },
      machine: { licenceState: 'grace' },
    });
    expect(eventOf(now.json().data, 'cancelled')).toMatchObject({
      kind: 'cancelled',
      detail: { when: 'now' },
    });
    expect((await post(paths.cancel(b.id), { when: 'now' })).statusCode).toBe(409);
    const oneTime = await subscription({ isRecurring: false });
    expect((await post(paths.cancel(oneTime.id), { when: 'now' })).json().msg).toBe(messages.notRecurring);
  });

  it('sends a card-update link; the new card declines on retry, a good one pays the renewal', async () => {
    const { id, deviceId, email } = await subscription();
    expect((await post(paths.retry(id))).json().msg).toBe(messages.nothingToRetry);

    const sent = await post(paths.cardUpdate(id));
    expect(sent.statusCode, sent.body).toBe(200);
    const [mail] = await t.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.to, email), eq(mailOutbox.subject, 'Update the card for your subscription')));
    expect(mail).toBeDefined();
    expect(eventOf(sent.json().data, 'card-update-sent')).toMatchObject({
      kind: 'card-update-sent',
      detail: { to: email },
    });

    const update = (cardNumber: string) =>
      t.app.inject({
        method: 'POST',
        url: paths.demoCardUpdate,
        payload: { subcriptionId: id, cardNumber, expiry: '12/49', cvc: '123' },
      });
    expect((await update('4000000000000002')).statusCode).toBe(402);
    expect((await update('4000 0000 0000 0341')).statusCode).toBe(200);

    // The period ends unpaid: the machine goes into grace; a retry is refused by the card.
    await later(31 * day);
    await t.app.licences.sweep();
    expect((await licenceOf(deviceId)).state).toBe('grace');
    const failed = await post(paths.retry(id));
    expect(failed.statusCode, failed.body).toBe(200);
    expect(failed.json().msg).toBe(messages.retryFailed('Your card was declined.'));
    expect(failed.json().data.plan.renewalFailedAt).not.toBeNull();
    expect(eventOf(failed.json().data, 'retried')).toMatchObject({
      kind: 'retried',
      detail: { outcome: 'failed' },
    });

    expect((await update('4242424242424242')).statusCode).toBe(200);
    const paid = await post(paths.retry(id));
    expect(paid.json().msg).toBe(messages.retried);
    expect(paid.json().data.machine.licenceState).toBe('active');
    expect(paid.json().data.plan.renewalFailedAt).toBeNull();
    expect(paid.json().data.payments).toHaveLength(2);
    expect(
      paid
        .json()
        .data.timeline.slice(0, 2)
        .map((e: { kind: string }) => e.kind)
        .sort(),
    ).toEqual(['renewed', 'retried']);
    expect(new Date(paid.json().data.plan.paidThrough).getTime()).toBeGreaterThan(t.clock.now.getTime());
  });
});
