import { and, eq, isNotNull } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@app/contract/paths';
import { accessLogs, errorLogs } from '#api/db/schema/logs.ts';
import { roles, users } from '#api/db/schema/users.ts';
import { installRouteRegistry } from '#api/lib/route-registry.ts';
import { addDevice, enrolDevice } from '#api/test/device-fixtures.ts';
import { createTestApp, testAdmin, type TestApp } from '#api/test/test-app.ts';
import { buildDemoApk } from '../app-updates/zip-writer.ts';
import { multipart } from '../app-updates/app-updates-test-app.ts';
import { addAdmin, codeAt, enrol, freshIp, nextStep, password } from './mfa-test-helpers.ts';

/*
 * Step-up (issue 15 item 4, decision 046): creating, editing or deleting an admin, deleting users in
 * bulk, changing a role's permissions or type, deleting a role, resetting another user's two-step
 * sign-in, revoking a machine, changing machines' status in bulk, and publishing a Force update (or
 * any release for every machine) need the admin's password (and code) confirmed on this session
 * within 5 minutes (issue 32 finding 2 added the deletes and the bulk actions, decision 063).
 */

let t: TestApp;
let adminRoleId: string;
let appRoleId: string;
beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.database.db.select({ id: roles.id, type: roles.type }).from(roles);
  adminRoleId = rows.find((r) => r.type === 'admin')!.id;
  const token = await t.login();
  const app = await t.injectAs(token, {
    method: 'POST',
    url: apiPaths.roles,
    payload: { roleName: 'Step-up technicians', type: 'app' },
  });
  appRoleId = app.json().data._id as string;
});
afterAll(() => t.close());

const fiveMinutes = 5 * 60_000;
const stepUpAnswer = (needsCode = false) => ({
  code: 403,
  msg: 'Confirm your password to continue',
  data: { stepUpRequired: true, needsCode },
});
const stepUp = (token: string, payload: object, remoteAddress = freshIp()) =>
  t.injectAs(token, { method: 'POST', url: apiPaths.profileStepUp, payload, remoteAddress });

let serial = 0;
const next = () => ++serial;
const userForm = (n: number, roleId: string) => ({
  firstName: 'Step',
  lastName: `Up ${n}`,
  roleId,
  userName: `step_up_${n}`,
  email: `step-up-${n}@example.test`,
  phone: '0123456789',
});

type Action = { name: string; run: (token: string) => Promise<{ statusCode: number; body: string }> };

/** Each action, ready to be tried several times (every try changes something new). */
async function dangerousActions(): Promise<Action[]> {
  const token = await t.login();
  const role = await t.injectAs(token, {
    method: 'POST',
    url: apiPaths.roles,
    payload: { roleName: 'Step-up role', type: 'admin', permissions: ['logs.view'] },
  });
  const roleId = role.json().data._id as string;
  const adminId = await addAdmin(t, 'step-up-edited@example.test');
  let versionCode = 100;
  return [
    {
      name: 'creating an admin',
      run: (tk) =>
        t.injectAs(tk, {
          method: 'POST',
          url: apiPaths.users,
          payload: { ...userForm(next(), adminRoleId), password: 'Created-Passw0rd' },
        }),
    },
    {
      name: 'editing an admin',
      run: (tk) =>
        t.injectAs(tk, {
          method: 'PUT',
          url: apiPaths.user(adminId),
          payload: { ...userForm(next(), adminRoleId), email: 'step-up-edited@example.test' },
        }),
    },
    {
      name: "changing a role's permissions",
      run: (tk) =>
        t.injectAs(tk, {
          method: 'PUT',
          url: apiPaths.role(roleId),
          payload: {
            roleName: 'Step-up role',
            type: 'admin',
            permissions: next() % 2 ? ['logs.view', 'devices.view'] : ['devices.view'],
          },
        }),
    },
    {
      name: 'deleting an admin',
      run: async (tk) =>
        t.injectAs(tk, {
          method: 'DELETE',
          url: apiPaths.user(await addAdmin(t, `step-up-deleted-${next()}@example.test`)),
        }),
    },
    {
      name: 'deleting users in bulk',
      run: async (tk) => {
        const [user] = await t.database.db
          .insert(users)
          .values({ ...userForm(next(), appRoleId), passwordHash: 'not-a-hash' })
          .returning({ id: users.id });
        return t.injectAs(tk, {
          method: 'POST',
          url: apiPaths.usersBulkDelete,
          payload: { ids: [user!.id] },
        });
      },
    },
    {
      name: 'deleting a role',
      run: async (tk) => {
        const [role] = await t.database.db
          .insert(roles)
          .values({ roleName: `Step-up doomed ${next()}`, type: 'app', permissions: [] })
          .returning({ id: roles.id });
        return t.injectAs(tk, { method: 'DELETE', url: apiPaths.role(role!.id) });
      },
    },
    {
      name: "changing machines' status in bulk",
      run: async (tk) => {
        const device = await addDevice(t);
        return t.injectAs(tk, {
          method: 'POST',
          url: apiPaths.machineBulkStatus,
          payload: { ids: [device.deviceId], status: 1 },
        });
      },
    },
    {
      name: "resetting another user's two-step sign-in",
      run: async (tk) => {
        const email = `step-up-lost-${next()}@example.test`;
        await enrol(t, email);
        const [user] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
        return t.injectAs(tk, { method: 'POST', url: apiPaths.userMfaReset(user!.id) });
      },
    },
    {
      name: 'revoking a machine',
      run: async (tk) => {
        const device = await enrolDevice(t);
        return t.injectAs(tk, { method: 'POST', url: apiPaths.machineEnrolmentRevoke(device.deviceId) });
      },
    },
    {
      name: 'publishing a Force update',
      run: (tk) => {
        versionCode += 1;
        const body = multipart(
          {
            appName: 'com.example.device',
            versionCode: String(versionCode),
            versionName: `1.0.${versionCode}`,
            remark: 'Urgent fix',
            updateDesc: 'Everyone must install this',
            updateType: '2',
          },
          { name: `device-${versionCode}.apk`, data: buildDemoApk('com.example.device', versionCode, 2000) },
        );
        return t.injectAs(tk, { method: 'POST', url: apiPaths.systemUpdates, ...body });
      },
    },
  ];
}

describe('the dangerous actions', () => {
  let actions: Action[];
  beforeAll(async () => {
    actions = await dangerousActions();
  });

  it('are refused with the step-up answer without one, allowed after one, and refused again 5 minutes later', async () => {
    for (const action of actions) {
      const token = await t.loginWithoutStepUp();
      const refused = await action.run(token);
      expect({ action: action.name, status: refused.statusCode }).toEqual({
        action: action.name,
        status: 403,
      });
      expect(JSON.parse(refused.body)).toEqual(stepUpAnswer());

      const confirmed = await stepUp(token, { password: testAdmin.password });
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      expect(confirmed.json()).toEqual({
        code: 200,
        msg: 'Password confirmed',
        data: { steppedUpUntil: new Date(t.clock.now.getTime() + fiveMinutes).toISOString() },
      });
      const allowed = await action.run(token);
      expect(allowed.statusCode, `${action.name}: ${allowed.body}`).toBeLessThan(300);

      // Still within the window: no second prompt (the reset's two-step enrolment moves the clock 30 s a try).
      t.clock.advance(fiveMinutes - 2 * 60_000);
      const within = await action.run(token);
      expect(within.statusCode, `${action.name}: ${within.body}`).toBeLessThan(300);
      t.clock.advance(2 * 60_000);
      const lapsed = await action.run(token);
      expect({ action: action.name, status: lapsed.statusCode }).toEqual({
        action: action.name,
        status: 403,
      });
      expect(JSON.parse(lapsed.body)).toEqual(stepUpAnswer());
    }
  });

  it('hold for the session that stepped up only, not for another session of the same admin', async () => {
    const [stepped, other] = [await t.loginWithoutStepUp(), await t.loginWithoutStepUp()];
    await t.stepUp(stepped);
    const revoke = async (token: string) => {
      const device = await enrolDevice(t);
      return t.injectAs(token, { method: 'POST', url: apiPaths.machineEnrolmentRevoke(device.deviceId) });
    };
    expect((await revoke(stepped)).statusCode).toBe(200);
    expect((await revoke(other)).statusCode).toBe(403);
  });

  it('are refused for lack of the permission before any step-up is asked for', async () => {
    const token = await t.login();
    const roleRes = await t.stepUp(token).then(() =>
      t.injectAs(token, {
        method: 'POST',
        url: apiPaths.roles,
        payload: { roleName: 'Step-up viewers', type: 'admin', permissions: ['devices.view'] },
      }),
    );
    const form = userForm(next(), roleRes.json().data._id as string);
    expect(
      (await t.injectAs(token, { method: 'POST', url: apiPaths.users, payload: { ...form, password } }))
        .statusCode,
    ).toBe(201);
    const viewer = await t.login(form.email, password);
    const device = await addDevice(t);
    const res = await t.injectAs(viewer, {
      method: 'POST',
      url: apiPaths.machineEnrolmentRevoke(device.deviceId),
    });
    expect(res.json()).toEqual({
      code: 403,
      msg: 'You do not have access to this: it needs the permission "devices.enrol"',
      data: null,
    });
  });
});

describe('what does not need a step-up', () => {
  it('creating and editing an app user, renaming a role, a Flexible update to part of the fleet', async () => {
    const token = await t.login();
    const n = next();
    const created = await t.injectAs(token, {
      method: 'POST',
      url: apiPaths.users,
      payload: { ...userForm(n, appRoleId), password: 'Technician-1' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const edited = await t.injectAs(token, {
      method: 'PUT',
      url: apiPaths.user(created.json().data._id as string),
      payload: { ...userForm(n, appRoleId), lastName: 'Renamed' },
    });
    expect(edited.statusCode, edited.body).toBe(200);

    const role = await t.injectAs(token, {
      method: 'POST',
      url: apiPaths.roles,
      payload: { roleName: 'Renamed later', type: 'admin', permissions: ['logs.view', 'devices.view'] },
    });
    const roleId = role.json().data._id as string;
    for (const payload of [
      { roleName: 'Renamed now', type: 'admin' },
      // The same set in another order changes nothing.
      { roleName: 'Renamed again', type: 'admin', permissions: ['devices.view', 'logs.view'] },
    ]) {
      const res = await t.injectAs(token, { method: 'PUT', url: apiPaths.role(roleId), payload });
      expect(res.statusCode, res.body).toBe(200);
    }

    const flexible = multipart(
      {
        appName: 'com.example.flexible',
        versionCode: '1',
        versionName: '1.0.0',
        remark: 'Minor',
        updateDesc: 'Install when convenient',
        updateType: '1',
        rolloutPercent: '25',
      },
      { name: 'flexible.apk', data: buildDemoApk('com.example.flexible', 1, 2000) },
    );
    const upload = await t.injectAs(token, { method: 'POST', url: apiPaths.systemUpdates, ...flexible });
    expect(upload.statusCode, upload.body).toBe(201);
  });

  it('but moving an admin to an app role, or an app user to an admin role, or an app role to admin, or a Flexible update to every machine, does', async () => {
    const token = await t.loginWithoutStepUp();
    const adminId = await addAdmin(t, `step-up-demoted-${next()}@example.test`);
    const demote = await t.injectAs(token, {
      method: 'PUT',
      url: apiPaths.user(adminId),
      payload: { ...userForm(next(), appRoleId) },
    });
    expect(demote.json()).toEqual(stepUpAnswer());

    const tech = await t.injectAs(token, {
      method: 'POST',
      url: apiPaths.users,
      payload: { ...userForm(next(), appRoleId), password: 'Technician-2' },
    });
    const promote = await t.injectAs(token, {
      method: 'PUT',
      url: apiPaths.user(tech.json().data._id as string),
      payload: { ...userForm(next(), adminRoleId) },
    });
    expect(promote.json()).toEqual(stepUpAnswer());

    const retype = await t.injectAs(token, {
      method: 'PUT',
      url: apiPaths.role(appRoleId),
      payload: { roleName: 'Step-up technicians', type: 'admin' },
    });
    expect(retype.json()).toEqual(stepUpAnswer());

    // No first stage is 100 %: every machine is offered it at once, as advancing to 100 % does.
    const everyMachine = multipart(
      {
        appName: 'com.example.flexible-all',
        versionCode: '1',
        versionName: '1.0.0',
        remark: 'Minor',
        updateDesc: 'Install when convenient',
        updateType: '1',
      },
      { name: 'flexible-all.apk', data: buildDemoApk('com.example.flexible-all', 1, 2000) },
    );
    const upload = await t.injectAs(token, { method: 'POST', url: apiPaths.systemUpdates, ...everyMachine });
    expect(upload.json()).toEqual(stepUpAnswer());
  });
});

describe('a sign-in counts as a step-up for 5 minutes (issue 35 item 9)', () => {
  const revokeAs = async (token: string) => {
    const device = await enrolDevice(t);
    return t.injectAs(token, { method: 'POST', url: apiPaths.machineEnrolmentRevoke(device.deviceId) });
  };

  it('lets a dangerous action through right after a sign-in with the password, until 5 minutes have passed', async () => {
    const token = await t.login();
    expect((await revokeAs(token)).statusCode).toBe(200);
    t.clock.advance(fiveMinutes - 1000);
    expect((await revokeAs(token)).statusCode).toBe(200);
    t.clock.advance(1000);
    const lapsed = await revokeAs(token);
    expect(lapsed.json()).toEqual(stepUpAnswer());
  });

  it('after a sign-in with the password and a code too, and the code step is asked for again once it lapses', async () => {
    const email = 'step-up-signed-in-with-code@example.test';
    const { secret } = await enrol(t, email);
    nextStep(t);
    const signIn = await t.app.inject({
      method: 'POST',
      url: apiPaths.login,
      payload: { email, password },
      remoteAddress: freshIp(),
    });
    const verified = await t.app.inject({
      method: 'POST',
      url: apiPaths.loginMfa,
      payload: { mfaToken: signIn.json().data.mfaToken, code: codeAt(t, secret) },
      remoteAddress: freshIp(),
    });
    const token = verified.json().data.accessToken as string;
    expect((await revokeAs(token)).statusCode).toBe(200);
    t.clock.advance(fiveMinutes);
    expect((await revokeAs(token)).json()).toEqual(stepUpAnswer(true));
  });

  it("holds for the session signed in only: another sign-in of the same admin does not renew an older session's", async () => {
    const older = await t.loginWithoutStepUp();
    const newer = await t.login();
    expect((await revokeAs(newer)).statusCode).toBe(200);
    expect((await revokeAs(older)).json()).toEqual(stepUpAnswer());
  });

  it('does not with SIGN_IN_STEP_UP=false: a dangerous action asks even right after the sign-in', async () => {
    const strict = await createTestApp({ SIGN_IN_STEP_UP: 'false' });
    try {
      const token = await strict.login();
      const device = await enrolDevice(strict);
      const url = apiPaths.machineEnrolmentRevoke(device.deviceId);
      expect((await strict.injectAs(token, { method: 'POST', url })).json()).toEqual(stepUpAnswer());
      await strict.stepUp(token);
      expect((await strict.injectAs(token, { method: 'POST', url })).statusCode).toBe(200);
    } finally {
      await strict.close();
    }
  });
});

describe('the prompt in the audit trail (issue 35 item 10)', () => {
  it('is an access row "step-up.asked", not an error row nor a refusal (nor the action\'s failure), and the action then goes through', async () => {
    const userId = await addAdmin(t, 'step-up-asked@example.test');
    const token = await t.loginWithoutStepUp('step-up-asked@example.test', password);
    const device = await enrolDevice(t);
    const url = apiPaths.machineEnrolmentRevoke(device.deviceId);
    expect((await t.injectAs(token, { method: 'POST', url })).json()).toEqual(stepUpAnswer());
    await t.stepUp(token, password);
    expect((await t.injectAs(token, { method: 'POST', url })).statusCode).toBe(200);

    await t.app.audit.flush();
    const resource = 'POST /api/v1/admin/machine/:id/enrolment/revoke';
    const access = await t.database.db
      .select({ statusCode: accessLogs.statusCode, event: accessLogs.event })
      .from(accessLogs)
      .where(and(eq(accessLogs.userId, userId), eq(accessLogs.resource, resource)));
    expect(access).toEqual(
      expect.arrayContaining([
        { statusCode: 403, event: 'step-up.asked' },
        { statusCode: 200, event: 'device.revoke.success' },
      ]),
    );
    expect(access).toHaveLength(2);
    const errors = await t.database.db.select().from(errorLogs).where(eq(errorLogs.userId, userId));
    expect(errors).toEqual([]);
  });
});

describe('the step-up itself', () => {
  it('refuses a wrong or missing password naming the field, and records the attempts without the password', async () => {
    const userId = await addAdmin(t, 'step-up-audited@example.test');
    const token = await t.login('step-up-audited@example.test', password);
    const wrong = await stepUp(token, { password: 'Not-The-Passw0rd-42' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({
      code: 400,
      msg: 'Password is incorrect',
      data: { errors: [{ path: 'password', message: 'Password is incorrect' }] },
    });
    const missing = await stepUp(token, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().data.errors).toEqual([{ path: 'password', message: 'Password is required' }]);
    expect((await stepUp(token, { password, extra: 1 })).statusCode).toBe(400);
    expect((await stepUp(token, { password })).statusCode).toBe(200);

    await t.app.audit.flush();
    const access = await t.database.db
      .select()
      .from(accessLogs)
      .where(and(eq(accessLogs.userId, userId), isNotNull(accessLogs.event)));
    const errors = await t.database.db
      .select()
      .from(errorLogs)
      .where(and(eq(errorLogs.userId, userId), isNotNull(errorLogs.event)));
    expect(access.map((r) => r.event)).toEqual(
      expect.arrayContaining(['step-up.failure', 'step-up.success']),
    );
    expect(access.find((r) => r.event === 'step-up.success')).toMatchObject({
      userEmail: 'step-up-audited@example.test',
      resource: 'POST /api/v1/admin/profile/step-up',
    });
    expect(errors.map((r) => r.event)).toContain('step-up.failure');
    const written = JSON.stringify([access, errors]);
    expect(written).not.toContain(password);
    expect(written).not.toContain('Not-The-Passw0rd-42');
  });

  it('asks an admin whose two-step sign-in is on for a code: missing or wrong named, a TOTP or recovery code accepted', async () => {
    const email = 'step-up-two-step@example.test';
    const { secret, recoveryCodes } = await enrol(t, email);
    nextStep(t);
    const signIn = await t.app.inject({
      method: 'POST',
      url: apiPaths.login,
      payload: { email, password },
      remoteAddress: freshIp(),
    });
    const { mfaToken } = signIn.json().data;
    const verified = await t.app.inject({
      method: 'POST',
      url: apiPaths.loginMfa,
      payload: { mfaToken, code: codeAt(t, secret) },
      remoteAddress: freshIp(),
    });
    const token = verified.json().data.accessToken as string;
    // Past the sign-in's own step-up (a sign-in counts as one, see above).
    t.clock.advance(fiveMinutes);
    nextStep(t);

    const device = await enrolDevice(t);
    const revoke = () =>
      t.injectAs(token, { method: 'POST', url: apiPaths.machineEnrolmentRevoke(device.deviceId) });
    expect((await revoke()).json()).toEqual(stepUpAnswer(true));

    const noCode = await stepUp(token, { password });
    expect(noCode.statusCode).toBe(400);
    expect(noCode.json()).toEqual({
      code: 400,
      msg: 'Code is required',
      data: { errors: [{ path: 'code', message: 'Code is required' }] },
    });
    const wrongCode = await stepUp(token, {
      password,
      code: '000000' === codeAt(t, secret) ? '111111' : '000000',
    });
    expect(wrongCode.json()).toEqual({
      code: 400,
      msg: 'Invalid or expired code',
      data: { errors: [{ path: 'code', message: 'Invalid or expired code' }] },
    });
    // A right code with a wrong password is still the password's fault.
    const wrongPassword = await stepUp(token, { password: 'Not-It-9', code: codeAt(t, secret) });
    expect(wrongPassword.json().data.errors[0].path).toBe('password');
    expect((await revoke()).statusCode).toBe(403);

    expect((await stepUp(token, { password, code: recoveryCodes[0] })).statusCode).toBe(200);
    expect((await revoke()).statusCode).toBe(200);
    t.clock.advance(fiveMinutes);
    nextStep(t);
    expect((await stepUp(token, { password, code: codeAt(t, secret) })).statusCode).toBe(200);
    // A recovery code is used once.
    t.clock.advance(fiveMinutes);
    expect((await stepUp(token, { password, code: recoveryCodes[0] })).statusCode).toBe(400);
  });

  it('cannot be guessed: after five wrong passwords the sixth try is refused with 429, even the right one', async () => {
    await addAdmin(t, 'step-up-guessed@example.test');
    const token = await t.login('step-up-guessed@example.test', password);
    for (let i = 0; i < 5; i++)
      expect((await stepUp(token, { password: `Guess-${i}-Passw0rd` })).statusCode).toBe(400);
    const blocked = await stepUp(token, { password });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    t.clock.advance(15 * 60_000 + 1000);
    const fresh = await t.login('step-up-guessed@example.test', password);
    expect((await stepUp(fresh, { password })).statusCode).toBe(200);
  });

  it('is refused without a session, and ends with the session', async () => {
    expect(
      (await t.app.inject({ method: 'POST', url: apiPaths.profileStepUp, payload: { password } })).statusCode,
    ).toBe(401);
    const token = await t.stepUp(await t.login());
    expect((await t.injectAs(token, { method: 'POST', url: apiPaths.logout })).statusCode).toBe(200);
    expect((await stepUp(token, { password: testAdmin.password })).statusCode).toBe(401);
  });
});

describe('which routes declare a step-up', () => {
  it('exactly the dangerous actions, and a staged rollout withdrawn or taken to 100 % (decision 051), each as reviewed', () => {
    const declared = Object.fromEntries(
      t.app.registeredRoutes.filter((r) => r.stepUp).map((r) => [`${r.method} ${r.url}`, r.stepUp]),
    );
    expect(declared).toEqual({
      'POST /api/v1/admin/users/': 'conditional',
      'POST /api/v1/admin/users': 'conditional',
      'PUT /api/v1/admin/users/:id': 'conditional',
      'DELETE /api/v1/admin/users/:id': 'conditional',
      'POST /api/v1/admin/users/bulk-delete': 'always',
      'PUT /api/v1/admin/roles/:id': 'conditional',
      'DELETE /api/v1/admin/roles/:id': 'always',
      'POST /api/v1/admin/machine/bulk-status': 'always',
      'POST /api/v1/admin/users/:id/mfa/reset': 'always',
      'POST /api/v1/admin/machine/:id/enrolment/revoke': 'always',
      'POST /api/v1/admin/system/updates': 'in-handler',
      'POST /api/v1/admin/system/updates/:id/rollout': 'conditional',
      // A machine exempted from its licence, or its exemption ended (decision 068).
      'PUT /api/v1/admin/machine/:id/licence/exemption': 'always',
      'POST /api/v1/admin/machine/:id/licence/exemption/end': 'always',
      // A subscription's paid-through date moved by hand, with a reason (issue 34 item 5), signed (decision 083).
      'POST /api/v1/admin/subscriptions/:id/extend': 'signature',
      // A command that interrupts a machine: restart, safety hold, re-enrol (decision 077).
      'POST /api/v1/admin/machine/:id/commands': 'conditional',
      // One command to many machines, and its approval (decision 077).
      'POST /api/v1/admin/commands': 'always',
      // Signed by the second admin, which stands for the step-up (decision 083).
      'POST /api/v1/admin/command-batches/:id/approve': 'signature',
      // An emergency declared to see a patient's data, and a use of it signed off (decision 082).
      'POST /api/v1/admin/patient/:id/break-glass': 'always',
      'POST /api/v1/admin/break-glass/:id/sign-off': 'always',
      // Signed, which stands for the step-up (decision 083): an erasure decision (085), sending a
      // field safety notice (084).
      'POST /api/v1/admin/erasure-requests/:id/decision': 'signature',
      'POST /api/v1/admin/safety-notices/:id/send': 'signature',
      // A customer removed, and many machines moved to a customer at once (decision 087).
      'DELETE /api/v1/admin/customers/:id': 'always',
      'POST /api/v1/admin/machine/bulk-assign': 'always',
    });
  });

  it('refuses to start with a step-up on a route that is not an admin route, or an unknown rule', async () => {
    const app = Fastify();
    installRouteRegistry(app);
    expect(() =>
      app.post('/api/v1/app/thing', { config: { access: 'device', stepUp: true } }, async () => 'x'),
    ).toThrow(/only an admin route declares a step-up/);
    expect(() =>
      app.post(
        '/api/v1/admin/thing',
        { config: { access: 'admin', permission: 'any-admin', stepUp: 'sometimes' as never } },
        async () => 'x',
      ),
    ).toThrow(/stepUp must be true, 'in-handler', 'signature' or a function/);
    await app.close();
  });
});
