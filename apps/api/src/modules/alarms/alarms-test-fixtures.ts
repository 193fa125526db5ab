import { randomUUID } from 'node:crypto';
import type { Alarm, AlarmList, AlarmRule } from '@app/contract/alarms';
import { apiPaths } from '@app/contract/paths';
import {
  adminToken,
  deviceInject,
  enrolDevice,
  flushCheckIns,
  type EnrolledDevice,
} from '#api/test/device-fixtures.ts';
import type { TestApp } from '#api/test/test-app.ts';

/*
 * The alarms' tests: machines that call (or stop) through the real device routes, the checks run at
 * once on the test clock instead of every minute, and the alarms read back through the console's route.
 */

/** Short, known thresholds. Test apps have no timer: the tests run the checks on the clock they move. */
export const alarmEnv = {
  DEVICE_OFFLINE_MINUTES: '15',
  ALARM_OFFLINE_HOURS: '1',
  ALARM_ERROR_BURST: '3',
  MIN_SUPPORTED_APP_VERSION_CODE: '40',
};

export const minutes = (n: number) => n * 60_000;

/** The machine checks in, and the coalesced last-seen write is made at once. */
export async function heartbeat(t: TestApp, d: EnrolledDevice, versionCode = 50) {
  const res = await deviceInject(t, d.credential, {
    method: 'POST',
    url: apiPaths.appHeartbeat,
    payload: { versionCode, versionName: `1.${versionCode}.0` },
  });
  await flushCheckIns(t);
  return res;
}

/** An enrolled machine that has checked in once. */
export async function seenMachine(t: TestApp, versionCode = 50): Promise<EnrolledDevice> {
  const d = await enrolDevice(t);
  const res = await heartbeat(t, d, versionCode);
  if (res.statusCode !== 200) throw new Error(`heartbeat: ${res.statusCode} ${res.body}`);
  return d;
}

/** `count` error logs from the machine's app, happening now on the test clock. */
export async function sendErrorLogs(t: TestApp, d: EnrolledDevice, count: number) {
  const items = Array.from({ length: count }, () => ({
    id: randomUUID(),
    resource: 'app/treatment',
    functionName: 'TreatmentRunner.start',
    message: 'Pump pressure out of range',
    utcTime: t.clock.now.toISOString(),
  }));
  const res = await deviceInject(t, d.credential, {
    method: 'POST',
    url: apiPaths.appErrorLogs,
    payload: { items },
  });
  if (res.statusCode !== 200) throw new Error(`error logs: ${res.statusCode} ${res.body}`);
}

export const evaluate = (t: TestApp) => t.app.alarmJobs.evaluate();

/** The console's Revoke on Device Details (a dangerous action: the admin confirms the password first). */
export async function revokeEnrolment(t: TestApp, d: Pick<EnrolledDevice, 'deviceId'>) {
  const token = await adminToken(t);
  await t.stepUp(token);
  const res = await t.injectAs(token, { method: 'POST', url: apiPaths.machineEnrolmentRevoke(d.deviceId) });
  if (res.statusCode !== 200) throw new Error(`revoke: ${res.statusCode} ${res.body}`);
}

/** The console's list for one machine: open by default, or past; optionally one rule. */
export async function alarmsOf(
  t: TestApp,
  d: Pick<EnrolledDevice, 'machineNumber'>,
  state: 'open' | 'past' = 'open',
  rule?: AlarmRule,
): Promise<Alarm[]> {
  const res = await t.injectAs(await adminToken(t), {
    method: 'GET',
    url: apiPaths.alarms,
    query: { state, search: d.machineNumber, limit: '100', ...(rule ? { rule } : {}) },
  });
  if (res.statusCode !== 200) throw new Error(`alarms: ${res.statusCode} ${res.body}`);
  return (res.json().data as AlarmList).alarms;
}

/** The rules each open alarm of the machine is about, sorted. */
export const openRulesOf = async (t: TestApp, d: Pick<EnrolledDevice, 'machineNumber'>) =>
  (await alarmsOf(t, d)).map((a) => a.rule).sort();
