import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminClient } from '@app/fleet-simulator/admin-client';
import { fakeAccessLog, fakeTreatment, seededRandom } from '@app/fleet-simulator/fake-data';
import { appVersion, runFleet, type FleetSummary } from '@app/fleet-simulator/fleet';
import { createTestApp, testAdmin, type TestApp } from '#api/test/test-app.ts';

/*
 * The fleet simulator (tools/fleet-simulator, the device API's reference client) against the real
 * app listening on a port: real HTTP, as the machines' app speaks it. What the machines sent must
 * show in the console's lists, each accepted record exactly once.
 */

let t: TestApp;
let url: string;
let summary: FleetSummary;
let admin: AdminClient;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  admin = new AdminClient({ baseUrl: url }, testAdmin.email, testAdmin.password);
  summary = await runFleet({
    url,
    adminEmail: testAdmin.email,
    adminPassword: testAdmin.password,
    devices: 3,
    minutes: 0.08,
    concurrency: 3,
    offlineShare: 0.34,
    // Many bad items and re-sent batches, so a short run surely has both.
    badShare: 0.2,
    resendShare: 0.6,
    // The licences name the server's PUBLIC_URL, not the port this test listens on.
    issuer: t.config.publicUrl,
  });
}, 180_000);

afterAll(async () => {
  await t?.close();
});

describe('the fleet simulator against the real API', () => {
  it('ends with every accepted record in the console exactly once and nothing unexpected', () => {
    expect(summary.surprises).toEqual([]);
    expect(summary.devices).toBe(3);
    expect(summary.duplicates).toBe(0);
    expect(summary.missing).toBe(0);
    expect(summary.accepted).toBeGreaterThan(30);
    // The bad items (a phone that is not one, a log dated tomorrow) were refused, the rest taken.
    expect(summary.refused).toBeGreaterThan(0);
  });

  it('fills every device with doctors, patients, a technician, treatments and logs, and its check-in', () => {
    for (const report of summary.machines) {
      const held = report.held!;
      expect(held.technicians).toBe(1);
      expect(held.doctors).toBeGreaterThanOrEqual(1);
      expect(held.patients).toBeGreaterThanOrEqual(1);
      expect(held.treatments).toBeGreaterThanOrEqual(1);
      expect(held.accessLogs).toBeGreaterThanOrEqual(2);
      expect(held.errorLogs).toBeGreaterThanOrEqual(1);
      expect(held).toMatchObject({
        doctors: report.expected.doctors,
        patients: report.expected.patients,
        treatments: report.expected.treatments,
        accessLogs: report.expected.accessLogs,
        errorLogs: report.expected.errorLogs,
      });
      expect(report.lastSeenAt).not.toBeNull();
      expect(report.appVersionName).toBe(appVersion.name);
    }
  });

  it('stores treatment images the console can show', async () => {
    const machineNumber = summary.machines[0]!.machine.machineNumber;
    const list = await admin.treatments(machineNumber, 1, 10);
    const detail = await admin.treatment(list.data[0]!._id);
    expect(detail.treatmentImages.length).toBeGreaterThanOrEqual(1);
    const image = detail.treatmentImages[0]!;
    const res = await fetch(new URL(image.url, url));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\/(png|jpeg)/);
  });

  it('lets a machine that was offline sync its backlog', () => {
    const offline = summary.machines.filter((r) => r.machine.maxBacklog > 0);
    expect(offline.length).toBeGreaterThanOrEqual(1);
    for (const report of offline) {
      expect(report.machine.backlog).toBe(0);
      expect(report.held!.accessLogs).toBe(report.expected.accessLogs);
    }
  });

  it('answered batches re-sent with the same ids as the first time', () => {
    expect(summary.resent).toBeGreaterThan(0);
    expect(summary.resentSame).toBe(summary.resent);
  });

  it('answers a retried batch "accepted" again without adding rows', async () => {
    const { machine } = summary.machines[0]!;
    const client = machine.client;
    const random = seededRandom(99);
    const doctor = machine.doctors.find((d) => d.patients.length > 0)!;
    client.use(doctor.session.user._id);
    const logs = [0, 1, 2].map(() => fakeAccessLog(random, doctor.session.user.userId, new Date()));
    const treatment = fakeTreatment(random, doctor.patients[0]!, [], new Date());
    const logsBefore = (await admin.appAccessLogs(machine.machineNumber)).length;
    const treatmentsBefore = (await admin.treatments(machine.machineNumber, 1, 1)).total;

    for (let attempt = 0; attempt < 2; attempt++) {
      const logAnswer = await client.sendAccessLogs(logs);
      expect(logAnswer).toEqual({
        accepted: 3,
        refused: 0,
        results: logs.map((l) => ({ id: l.id, status: 'accepted' })),
      });
      const treatmentAnswer = await client.sendTreatments([treatment]);
      expect(treatmentAnswer.results).toEqual([{ id: treatment.id, status: 'accepted' }]);
    }
    expect((await admin.appAccessLogs(machine.machineNumber)).length).toBe(logsBefore + 3);
    expect((await admin.treatments(machine.machineNumber, 1, 1)).total).toBe(treatmentsBefore + 1);
  });
});
