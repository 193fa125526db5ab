import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { users } from '#api/db/schema/users.ts';
import { hashPassword } from '#api/lib/passwords.ts';
import { startSmtpPeer, type ReceivedMail, type SmtpPeer } from '#api/test/smtp-peer.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import { firstAdminRoleId } from '#api/test/admin-role.ts';

/** The app under test and the SMTP server it sends its mail to. */
export const ctx = {} as { t: TestApp; peer: SmtpPeer };

let ipCounter = 0;
/** Each call its own client address, so the per-IP throttles only bite where a test wants them to. */
export const freshIp = () => `10.1.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

/** Starts the app with a real SMTP peer for the calling file's tests. */
export function onAccountApp() {
  beforeAll(async () => {
    ctx.peer = await startSmtpPeer();
    ctx.t = await createTestApp({ SMTP_URL: ctx.peer.url, MAIL_FROM: 'Console <no-reply@example.test>' });
  });
  afterAll(async () => {
    await ctx.t.close();
    await ctx.peer.close();
  });
  // Step past the 30 s resend gap and the hourly cap between tests.
  beforeEach(() => ctx.t.clock.advance(61 * 60_000));
}

export const post = (url: string, payload: object, ip = freshIp()) =>
  ctx.t.app.inject({ method: 'POST', url, payload, remoteAddress: ip });
export const forgot = (email: string, ip?: string) => post('/api/v1/admin/forgot-password', { email }, ip);
export const resend = (email: string, ip?: string) => post('/api/v1/admin/resend-otp', { email }, ip);
export const verify = (email: string, otp: string, ip?: string) =>
  post('/api/v1/admin/verify-email', { email, otp }, ip);
export const reset = (body: object) => post('/api/v1/admin/reset-password', body);
export const settle = async () => {
  await ctx.t.app.account.idle();
  await ctx.t.app.mailer.idle();
};
export const otpOf = (mail: ReceivedMail) => /code to reset your password is: (\d{6})/.exec(mail.text)![1]!;

/** Asks for an OTP and reads it from the mail the SMTP server received. */
export async function requestOtp(email: string): Promise<string> {
  const before = ctx.peer.received.length;
  expect((await forgot(email)).statusCode).toBe(200);
  await settle();
  const mail = await ctx.peer.waitFor(
    (m) => ctx.peer.received.indexOf(m) >= before && m.to.includes(email.toLowerCase()),
  );
  return otpOf(mail);
}

export async function addAdmin(email: string, password = 'Start-Passw0rd') {
  const roleId = await firstAdminRoleId(ctx.t.database.db);
  await ctx.t.database.db.insert(users).values({
    email,
    userName: email.split('@')[0]!,
    passwordHash: await hashPassword(password),
    roleId,
  });
}
