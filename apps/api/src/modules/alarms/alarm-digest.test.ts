import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alarmMessages } from '@app/contract/alarms';
import { apiPaths } from '@app/contract/paths';
import { signInWithPermissions } from '#api/test/admin-with-permissions.ts';
import { adminToken } from '#api/test/device-fixtures.ts';
import { startSmtpPeer, type SmtpPeer } from '#api/test/smtp-peer.ts';
import { createTestApp, testAdmin, type TestApp } from '#api/test/test-app.ts';
import { digestMoment } from './alarm-digest.ts';
import { alarmEnv, evaluate, heartbeat, minutes, seenMachine } from './alarms-test-fixtures.ts';

/*
 * The daily digest through the mailer to a real SMTP server: sent from the digest hour (07:00 UTC
 * here) to the admins who turned it on and may see alarms, once a day, and not on a day with
 * nothing open.
 */

let t: TestApp;
let peer: SmtpPeer;
const hours = (n: number) => minutes(60 * n);
/** 06:00 UTC of the day the test runs. */
const sixToday = () => {
  const d = new Date();
  d.setUTCHours(6, 0, 0, 0);
  return d;
};

beforeAll(async () => {
  peer = await startSmtpPeer();
  t = await createTestApp({ ...alarmEnv, SMTP_URL: peer.url, ALARM_DIGEST_HOUR: '7' });
  t.clock.now = sixToday();
});
afterAll(async () => {
  await t.close();
  await peer.close();
});

const digestSetting = async (token: string, enabled?: boolean) =>
  t.injectAs(token, {
    method: enabled === undefined ? 'GET' : 'PUT',
    url: apiPaths.profileAlarmDigest,
    ...(enabled === undefined ? {} : { payload: { enabled } }),
  });
const mailsTo = (email: string) => peer.received.filter((m) => m.to.includes(email));

describe('digestMoment', () => {
  it('is today at the hour once it has come, else yesterday at the hour', () => {
    expect(digestMoment(new Date('2030-03-10T06:59:59Z'), 7).toISOString()).toBe('2030-03-09T07:00:00.000Z');
    expect(digestMoment(new Date('2030-03-10T07:00:00Z'), 7).toISOString()).toBe('2030-03-10T07:00:00.000Z');
    expect(digestMoment(new Date('2030-03-10T23:30:00Z'), 0).toISOString()).toBe('2030-03-10T00:00:00.000Z');
  });
});

describe('the daily alarm digest', () => {
  it('goes from the digest hour, once a day, to the admins who turned it on and may see alarms', async () => {
    const token = await adminToken(t);
    expect((await digestSetting(token)).json().data).toEqual({ enabled: false });
    const on = await digestSetting(token, true);
    expect([on.statusCode, on.json().msg, on.json().data]).toEqual([
      200,
      alarmMessages.digestOn,
      { enabled: true },
    ]);
    expect((await digestSetting(token)).json().data).toEqual({ enabled: true });
    // Another admin who may see alarms but did not ask for the digest.
    await signInWithPermissions(t, token, ['devices.view']);

    const machine = await seenMachine(t, 12);
    await evaluate(t);
    // Before 07:00 the day's digest is not due yet (turned on today: nothing for yesterday).
    expect(await t.app.alarmJobs.sendDigests()).toBe(0);

    t.clock.advance(hours(1));
    expect(await t.app.alarmJobs.sendDigests()).toBe(1);
    const mail = await peer.waitFor((m) => m.to.includes(testAdmin.email));
    expect(mail.subject).toBe('Alarm digest: 1 alarm is open.');
    expect(mail.text).toContain(
      `${machine.machineNumber}: App version below minimum. Runs version 12; the minimum supported is 40.`,
    );
    expect(mail.text).toContain('not acknowledged');
    expect(mail.text).toContain(`${t.config.publicUrl}/admin/alarms`);
    expect(mail.html).toContain(machine.machineNumber);

    // The same day again: nothing more. The next day from 07:00: one more.
    t.clock.advance(hours(3));
    expect(await t.app.alarmJobs.sendDigests()).toBe(0);
    t.clock.advance(hours(21));
    expect(await t.app.alarmJobs.sendDigests()).toBe(1);
    await t.app.mailer.idle();
    expect(mailsTo(testAdmin.email)).toHaveLength(2);
    expect(peer.received.filter((m) => m.to.some((to) => to.startsWith('perm-')))).toEqual([]);

    // Resolved by itself (the machine updated): the next day has nothing open, so no mail.
    await heartbeat(t, machine, 40);
    await evaluate(t);
    t.clock.advance(hours(24));
    expect(await t.app.alarmJobs.sendDigests()).toBe(0);
    await t.app.mailer.idle();
    expect(mailsTo(testAdmin.email)).toHaveLength(2);
  });

  it('stops when the admin turns it off, and for an admin whose role no longer may see alarms', async () => {
    const token = await adminToken(t);
    const viewer = await signInWithPermissions(t, token, ['devices.view']);
    expect((await digestSetting(viewer.token, true)).statusCode).toBe(200);
    await seenMachine(t, 3);
    await evaluate(t);
    t.clock.advance(hours(24));
    expect(await t.app.alarmJobs.sendDigests()).toBe(2);
    await t.app.mailer.idle();
    const viewerMails = () => peer.received.filter((m) => m.to.some((to) => to.startsWith('perm-')));
    expect(viewerMails()).toHaveLength(1);

    // A day has passed on the clock: a new session.
    const admin = await adminToken(t);
    const off = await digestSetting(admin, false);
    expect([off.json().msg, off.json().data]).toEqual([alarmMessages.digestOff, { enabled: false }]);
    await t.stepUp(admin);
    const demoted = await t.injectAs(admin, {
      method: 'PUT',
      url: apiPaths.role(viewer.roleId),
      payload: {
        roleName: `Demoted ${viewer.roleId.slice(0, 8)}`,
        type: 'admin',
        permissions: ['logs.view'],
      },
    });
    expect(demoted.statusCode).toBe(200);
    const before = peer.received.length;
    t.clock.advance(hours(24));
    expect(await t.app.alarmJobs.sendDigests()).toBe(0);
    await t.app.mailer.idle();
    expect(peer.received).toHaveLength(before);
  });
});
