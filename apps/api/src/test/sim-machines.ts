import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { consolePhone } from '@app/fake-data/people';
import { fakeClinic } from '@app/fake-data/places';
import { AdminClient } from '@app/fleet-simulator/admin-client';
import { seededRandom } from '@app/fleet-simulator/fake-data';
import { SimMachine, type MachineOptions } from '@app/fleet-simulator/machine';
import { testAdmin, type TestApp } from './test-app.ts';

/**
 * The fleet simulator against a test app listening on a port, over real HTTP: the app listens, an
 * admin client signs in, an app role is made for the machines' technicians. `tag` names this
 * test's machines (SIM-<TAG>-…) and technicians (tech-<tag>-…). `provision` adds a
 * machine in the console, enrols it, checks it in and signs its technician in, as a clinic would.
 */
export async function simulatedFleet(t: TestApp, tag: string) {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const admin = new AdminClient({ baseUrl: url }, testAdmin.email, testAdmin.password);
  await admin.signIn();
  const run = randomBytes(3).toString('hex');
  const role = await admin.createAppRole(`Technicians ${tag} ${run}`);
  let count = 0;

  async function provision(options: Partial<MachineOptions> = {}) {
    const label = `${run}-${++count}`;
    const random = seededRandom(count);
    const machine = new SimMachine(label, {
      http: { baseUrl: url },
      random,
      resendShare: 0,
      badShare: 0,
      images: () => [],
      now: () => t.clock.now,
      issuer: t.config.publicUrl,
      ...options,
    });
    const device = await admin.addDevice({
      machineNumber: `SIM-${tag.toUpperCase()}-${label}`,
      serialNumber: `SN-SIM-${tag.toUpperCase()}-${label}`,
      ...fakeClinic(random, machine.place),
      city: machine.place.city,
      country: machine.place.country,
    });
    await machine.client.enrol((await admin.issueEnrolmentCode(device._id)).code);
    const technician = {
      userName: `tech-${tag}-${label}`,
      password: `Tech-${randomBytes(6).toString('hex')}`,
    };
    await admin.addTechnician(role._id, [device._id], technician, { phone: consolePhone(random) });
    await machine.heartbeat();
    await machine.setUpPeople(technician, role.roleId);
    return { machine, device };
  }
  return { url, admin, provision };
}
