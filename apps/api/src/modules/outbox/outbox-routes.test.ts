import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxMessages, outboxPaths } from '@app/contract/outbox';
import { mailOutbox } from '#api/db/schema/mail.ts';
import { signInWithPermissions } from '#api/test/admin-with-permissions.ts';
import { startSmtpPeer, type SmtpPeer } from '#api/test/smtp-peer.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';

/* The Outbox (issue 35 item 3): every mail, never a body that holds a code or a link, and "Send again". */

let t: TestApp;
let token: string;
let peer: SmtpPeer;
beforeAll(async () => {
  peer = await startSmtpPeer();
  t = await createTestApp({ SMTP_URL: peer.url, MAIL_MAX_ATTEMPTS: '3' });
  token = await t.login();
});
afterAll(async () => {
  await t.close();
  await peer.close();
});

const get = (url: string, as = token) => t.injectAs(as, { method: 'GET', url });
const resend = (id: string) => t.injectAs(token, { method: 'POST', url: outboxPaths.resend(id) });

let minute = 0;
/** A row as the mailer leaves it, a minute after the one before. */
async function stored(over: Partial<typeof mailOutbox.$inferInsert> = {}) {
  const [row] = await t.database.db
    .insert(mailOutbox)
    .values({
      to: 'clinic@example.test',
      subject: 'Your payment link',
      text: 'Pay here: https://example.test/plans/secret-link',
      holdsSecret: true,
      status: 'failed',
      attempts: 3,
      lastError: 'connect ECONNREFUSED',
      nextAttemptAt: t.clock.now,
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, ++minute)),
      ...over,
    })
    .returning({ id: mailOutbox.id });
  return row!.id;
}

describe('GET outbox', () => {
  it('lists every mail newest first with recipient, subject, status, tries and last error, never a body', async () => {
    const older = await stored({ to: 'first@example.test', subject: 'Reset code' });
    const newer = await stored({ to: 'second@example.test', status: 'sent', attempts: 1, lastError: null });
    const res = await get(`${outboxPaths.list}?search=example.test&limit=50`);
    expect(res.statusCode, res.body).toBe(200);
    const { messages, delivers } = res.json().data;
    expect(delivers).toBe(true);
    const ids = messages.map((m: { _id: string }) => m._id);
    expect(ids.indexOf(newer)).toBeLessThan(ids.indexOf(older));
    expect(messages.find((m: { _id: string }) => m._id === older)).toMatchObject({
      to: 'first@example.test',
      subject: 'Reset code',
      status: 'failed',
      attempts: 3,
      lastError: 'connect ECONNREFUSED',
      holdsSecret: true,
    });
    expect(res.body).not.toContain('secret-link');
  });

  it('filters by status and by recipient or subject', async () => {
    await stored({ to: 'only-me@example.test', subject: 'Alarm digest', status: 'sent', holdsSecret: false });
    const bySearch = (await get(`${outboxPaths.list}?search=only-me`)).json().data;
    expect(bySearch.messages.map((m: { to: string }) => m.to)).toEqual(['only-me@example.test']);
    expect(bySearch.total).toBe(1);
    const bySubject = (await get(`${outboxPaths.list}?search=alarm%20digest&status=sent`)).json().data;
    expect(bySubject.messages.map((m: { to: string }) => m.to)).toEqual(['only-me@example.test']);
    const failed = (await get(`${outboxPaths.list}?status=failed&limit=100`)).json().data;
    expect(failed.messages.every((m: { status: string }) => m.status === 'failed')).toBe(true);
  });

  it('refuses a bad status or page with a 400 naming the field', async () => {
    const res = await get(`${outboxPaths.list}?status=lost`);
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe(outboxMessages.statusInvalid);
    expect((await get(`${outboxPaths.list}?page=0`)).json().msg).toBe('page must be at least 1');
  });

  it('shows the text of a message without a secret, and never that of one with a code or a link', async () => {
    const plain = await stored({ holdsSecret: false, text: 'Your email address was changed.' });
    const secret = await stored();
    expect((await get(outboxPaths.message(plain))).json().data.text).toBe('Your email address was changed.');
    const hidden = await get(outboxPaths.message(secret));
    expect(hidden.json().data).toMatchObject({ _id: secret, text: null, holdsSecret: true });
    expect(hidden.body).not.toContain('secret-link');
    expect((await get(outboxPaths.message('00000000-0000-4000-8000-000000000000'))).statusCode).toBe(404);
    expect((await get(outboxPaths.message('nope'))).json().msg).toBe(outboxMessages.invalidId);
  });

  it('is for admins holding logs.view', async () => {
    const devicesOnly = await signInWithPermissions(t, token, ['devices.view']);
    expect((await get(outboxPaths.list, devicesOnly.token)).statusCode).toBe(403);
    const auditor = await signInWithPermissions(t, token, ['logs.view']);
    expect((await get(outboxPaths.list, auditor.token)).statusCode).toBe(200);
  });
});

describe('POST outbox/:id/resend', () => {
  it('makes a failed mail that ran out of tries due now with fresh tries, and the retry job sends it once', async () => {
    const id = await stored({ to: 'resend-me@example.test', subject: 'Resend me' });
    // Out of tries: the retry job leaves it alone.
    expect(await t.app.mailer.retryDue()).toBe(0);
    const res = await resend(id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ msg: outboxMessages.resent, data: { status: 'failed', attempts: 0 } });
    await t.app.mailer.retryDue();
    await t.app.mailer.idle();
    const mail = await peer.waitFor((m) => m.to.includes('resend-me@example.test'));
    expect(mail.subject).toBe('Resend me');
    const [row] = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
    expect(row).toMatchObject({ status: 'sent', attempts: 1, text: '[cleared after sending]' });
    expect(peer.received.filter((m) => m.to.includes('resend-me@example.test'))).toHaveLength(1);
  });

  it('refuses a mail that did not fail (409), an unknown one (404) and a bad id (400)', async () => {
    const sent = await stored({ status: 'sent', attempts: 1, lastError: null });
    const refused = await resend(sent);
    expect([refused.statusCode, refused.json().msg]).toEqual([409, outboxMessages.resendOnlyFailed]);
    expect((await resend('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await resend('nope')).statusCode).toBe(400);
  });
});
