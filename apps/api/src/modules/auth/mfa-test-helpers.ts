import { expect } from 'vitest';
import { apiPaths } from '@app/contract/paths';
import { users } from '#api/db/schema/users.ts';
import { hashPassword } from '#api/lib/passwords.ts';
import { base32Decode, totp } from '#api/lib/totp.ts';
import type { TestApp } from '#api/test/test-app.ts';
import { firstAdminRoleId } from '#api/test/admin-role.ts';

let ipCounter = 0;
/** Each caller its own address, so the per-IP limits only bite where a test wants them to. */
export const freshIp = () => `10.2.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;
export const password = 'Mfa-Passw0rd!';

/** Adds an admin with that email and `pw` as password; answers its user id. */
export async function addAdmin(app: TestApp, email: string, pw = password) {
  const roleId = await firstAdminRoleId(app.database.db);
  const [row] = await app.database.db
    .insert(users)
    .values({
      email,
      userName: email.split('@')[0]!,
      passwordHash: await hashPassword(pw),
      roleId,
    })
    .returning({ id: users.id });
  return row!.id;
}

export const post = (app: TestApp, url: string, payload?: object, ip = freshIp()) =>
  app.app.inject({ method: 'POST', url, payload, remoteAddress: ip });
export const login = (app: TestApp, email: string, ip?: string) =>
  post(app, apiPaths.login, { email, password }, ip);
export const codeAt = (app: TestApp, secret: Buffer) => totp(secret, app.clock.now.getTime());
/** The next time step, so a fresh code is not refused as a replay of the last one. */
export const nextStep = (app: TestApp) => app.clock.advance(30_000);

export async function sessionToken(app: TestApp, email: string) {
  const res = await login(app, email);
  expect(res.json().data.accessToken, res.body).toBeTruthy();
  return res.json().data.accessToken as string;
}

/** Adds an admin and enrols through the profile routes as a user would, computing the code from the manual key. */
export async function enrol(app: TestApp, email: string) {
  await addAdmin(app, email);
  const token = await sessionToken(app, email);
  const setup = await app.injectAs(token, { method: 'POST', url: apiPaths.profileMfaSetup });
  expect(setup.statusCode, setup.body).toBe(200);
  const secret = base32Decode(setup.json().data.manualKey);
  const confirm = await app.injectAs(token, {
    method: 'POST',
    url: apiPaths.profileMfaConfirm,
    payload: { code: codeAt(app, secret) },
  });
  expect(confirm.statusCode, confirm.body).toBe(200);
  nextStep(app);
  return { token, secret, recoveryCodes: confirm.json().data.recoveryCodes as string[] };
}

export async function challenge(app: TestApp, email: string, ip?: string) {
  const res = await login(app, email, ip);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { mfa: string; mfaToken: string; accessToken?: string };
}
