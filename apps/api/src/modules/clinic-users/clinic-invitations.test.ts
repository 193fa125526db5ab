import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clinicUserMessages, clinicUserPaths } from '@app/contract/clinic-users-texts';
import { mfaMessages } from '@app/contract/mfa';
import { accessLogs } from '#api/db/schema/logs.ts';
import { mailOutbox } from '#api/db/schema/mail.ts';
import { clinicRoleIds, users } from '#api/db/schema/users.ts';
import { base32Decode, totp } from '#api/lib/totp.ts';
import {
  acceptInvitation,
  clinicPassword,
  createCustomer,
  invitationTokenFor,
  inviteByAdmin,
} from '#api/test/clinic-users.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
});
afterAll(() => t.close());

let n = 0;
const emailOf = (tag: string) => `${tag}-${++n}@clinic.example`;
const read = (token: string) => t.app.inject({ method: 'GET', url: clinicUserPaths.invitation(token) });

describe("the supplier's invitation", () => {
  it("mails the clinic's manager a link, readable, valid 72 hours, that names the clinic", async () => {
    const customer = await createCustomer(t, { name: 'Clinique du Lac' });
    const email = emailOf('manager');
    const res = await t.injectAs(admin, {
      method: 'POST',
      url: clinicUserPaths.adminInvitations(customer.id),
      payload: { email: email.toUpperCase() },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      msg: clinicUserMessages.invitationSent,
      data: { email, role: 'manager' },
    });
    const expiresIn = Date.parse(res.json().data.expiresAt) - t.clock.now.getTime();
    expect(expiresIn).toBe(72 * 3600_000);

    await t.app.mailer.idle();
    const [mail] = await t.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.to, email))
      .orderBy(desc(mailOutbox.createdAt))
      .limit(1);
    expect(mail!.subject).toBe('Your invitation to the Clinique du Lac clinic portal');
    expect(mail!.text).toContain('invites you to the clinic portal of Clinique du Lac as manager');
    expect(mail!.text).toMatch(/http:\/\/localhost:\d+\/invite\/[A-Za-z0-9_-]{43}\n/);
    expect(mail!.holdsSecret).toBe(true);

    const token = await invitationTokenFor(t, email);
    const page = await read(token);
    expect(page.statusCode).toBe(200);
    expect(page.json().data).toEqual({
      customerName: 'Clinique du Lac',
      email,
      role: 'manager',
      expiresAt: res.json().data.expiresAt,
      requireMfa: false,
    });
    // The customer's detail lists the invitation as waiting.
    const people = await t.injectAs(admin, { method: 'GET', url: clinicUserPaths.adminUsers(customer.id) });
    expect(people.json().data).toMatchObject({ users: [], invitations: [{ email, role: 'manager' }] });
  });

  it('refuses an unknown customer (404), a bad email and role (400 naming them), an email already a user (409)', async () => {
    const unknown = await t.injectAs(admin, {
      method: 'POST',
      url: clinicUserPaths.adminInvitations('00000000-0000-4000-8000-000000000000'),
      payload: { email: emailOf('x') },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().msg).toBe(clinicUserMessages.customerNotFound);
    const customer = await createCustomer(t);
    const post = (payload: object) =>
      t.injectAs(admin, { method: 'POST', url: clinicUserPaths.adminInvitations(customer.id), payload });
    expect((await post({ email: 'not-an-email' })).json().msg).toBe(clinicUserMessages.emailInvalid);
    expect((await post({ email: emailOf('r'), role: 'owner' })).json().msg).toBe(
      clinicUserMessages.roleInvalid,
    );
    const taken = await post({ email: 'admin@example.com' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().msg).toBe(clinicUserMessages.emailTaken);
  });
});

describe('the link', () => {
  it('makes the account once: the manager is signed in at the clinic, and the link then says it was used', async () => {
    const customer = await createCustomer(t);
    const email = emailOf('once');
    const token = await inviteByAdmin(t, admin, customer.id, email);
    const accepted = await acceptInvitation(t, token);
    expect(accepted.statusCode, accepted.body).toBe(200);
    const { accessToken, admin: profile } = accepted.json().data;
    expect(profile).toMatchObject({
      email,
      firstName: 'Clara',
      role: { type: 'clinic', roleName: 'Clinic manager' },
      clinic: { _id: customer.id, name: customer.name, role: 'manager' },
    });
    const [user] = await t.database.db.select().from(users).where(eq(users.email, email));
    expect(user).toMatchObject({ customerId: customer.id, roleId: clinicRoleIds.manager });
    const me = await t.injectAs(accessToken, { method: 'GET', url: clinicUserPaths.me });
    expect(me.json().data.clinic).toEqual({ _id: customer.id, name: customer.name, role: 'manager' });

    for (const res of [await read(token), await acceptInvitation(t, token)]) {
      expect(res.statusCode).toBe(410);
      expect(res.json().msg).toBe(clinicUserMessages.invitationUsed);
    }
    // The sign-in page takes the new password.
    expect(await t.login(email, clinicPassword)).toBeTruthy();
  });

  it('says so when it has expired (after 72 hours), was replaced by a newer one, or is unknown', async () => {
    const customer = await createCustomer(t);
    const late = await inviteByAdmin(t, admin, customer.id, emailOf('late'));
    t.clock.advance(72 * 3600_000);
    // The admin's session has ended with the hours too.
    admin = await t.login();
    for (const res of [await read(late), await acceptInvitation(t, late)]) {
      expect(res.statusCode).toBe(410);
      expect(res.json().msg).toBe(clinicUserMessages.invitationExpired);
    }
    const email = emailOf('twice');
    const first = await inviteByAdmin(t, admin, customer.id, email);
    const second = await inviteByAdmin(t, admin, customer.id, email);
    expect((await read(first)).json().msg).toBe(clinicUserMessages.invitationRevoked);
    expect((await read(second)).statusCode).toBe(200);
    const unknown = await read('A'.repeat(43));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().msg).toBe(clinicUserMessages.invitationNotFound);
  });

  it('takes the password rules of the rest of the console', async () => {
    const customer = await createCustomer(t);
    const token = await inviteByAdmin(t, admin, customer.id, emailOf('rules'));
    const short = await acceptInvitation(t, token, 'abc');
    expect(short.statusCode).toBe(400);
    expect(short.json().msg).toBe('Password must be at least 6 characters');
    const common = await acceptInvitation(t, token, 'password123');
    expect(common.statusCode).toBe(400);
    // Refused before anything was used: the link still works.
    expect((await read(token)).statusCode).toBe(200);
  });

  it('asks for two-step enrolment first when the clinic requires it, then opens the session', async () => {
    const customer = await createCustomer(t, { requireMfa: true });
    const email = emailOf('mfa');
    const token = await inviteByAdmin(t, admin, customer.id, email);
    expect((await read(token)).json().data.requireMfa).toBe(true);
    const accepted = await acceptInvitation(t, token);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().msg).toBe(mfaMessages.enrolStep);
    const { mfa, mfaToken } = accepted.json().data;
    expect(mfa).toBe('enrol');
    const setup = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/login/mfa/setup',
      payload: { mfaToken },
    });
    expect(setup.statusCode, setup.body).toBe(200);
    const confirmed = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/login/mfa/confirm',
      payload: { mfaToken, code: totp(base32Decode(setup.json().data.manualKey), t.clock.now.getTime()) },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().data.admin.clinic.role).toBe('manager');
    // Signing in again asks for the code; the password alone opens nothing.
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/login',
      payload: { email, password: clinicPassword },
    });
    expect(login.json().data.mfa).toBe('verify');
    // And it cannot be turned off: the clinic requires it.
    const status = await t.injectAs(confirmed.json().data.accessToken, {
      method: 'GET',
      url: clinicUserPaths.mfa,
    });
    expect(status.json().data).toMatchObject({ enabled: true, required: true });
  });

  it('leaves in the audit trail the invitation sent and accepted, each with the customer', async () => {
    const customer = await createCustomer(t);
    const email = emailOf('audit');
    const token = await inviteByAdmin(t, admin, customer.id, email);
    expect((await acceptInvitation(t, token)).statusCode).toBe(200);
    await t.app.audit.flush();
    const rows = await t.database.db
      .select({ resource: accessLogs.resource, event: accessLogs.event, userEmail: accessLogs.userEmail })
      .from(accessLogs)
      .where(and(eq(accessLogs.customerId, customer.id)))
      .orderBy(accessLogs.id);
    expect(rows).toEqual([
      {
        resource: 'POST /api/v1/admin/customers/:id/invitations',
        event: null,
        userEmail: 'admin@example.com',
      },
      {
        resource: 'POST /api/v1/clinic/invitation/:token',
        event: 'invitation.accept.success',
        userEmail: email,
      },
    ]);
  });
});
