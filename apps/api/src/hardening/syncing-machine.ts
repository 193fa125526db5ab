import { randomBytes } from 'node:crypto';
import type { AccessLogItem, BatchResult, ErrorLogItem, TreatmentItem } from '@app/contract/device-api';
import { AdminClient } from '@app/fleet-simulator/admin-client';
import { DeviceClient } from '@app/fleet-simulator/device-client';
import {
  fakeAccessLog,
  fakeDoctor,
  fakeErrorLog,
  fakePatient,
  fakeTreatment,
} from '@app/fleet-simulator/fake-data';
import type { Rng } from '@app/fake-data/random';
import type { RetryPolicy } from '@app/fleet-simulator/http';
import { hardeningAdmin } from './api-process.ts';

/*
 * A machine that syncs, for the suites that break the server under it (kill -9 mid-batch, an
 * instance killed behind the balancer): enrolled through the real routes with a technician, a
 * signed-in doctor and some patients, and the batches it sends, each item with its own id. The
 * client is the fleet simulator's (the reference client), with the retry rule the suite chooses.
 */

export type SyncingMachine = {
  client: DeviceClient;
  credential: string;
  patientIds: string[];
  doctorUserId: number;
};

export async function syncingMachine(
  url: string,
  { name, retry, patients, random }: { name: string; retry: RetryPolicy; patients: number; random: Rng },
): Promise<SyncingMachine> {
  const admin = new AdminClient({ baseUrl: url }, hardeningAdmin.email, hardeningAdmin.password);
  const tag = randomBytes(4).toString('hex');
  const letter = name[0]!.toUpperCase();
  const device = await admin.addDevice({
    machineNumber: `${letter}-${tag}`,
    serialNumber: `S${letter}-${tag}`,
    location: `${name} Clinic`,
    latitude: 1,
    longitude: 2,
    city: 'Oslo',
    country: 'Norway',
    address: 'Gate 1',
  });
  const client = new DeviceClient({ baseUrl: url, retry });
  await client.enrol((await admin.issueEnrolmentCode(device._id)).code);
  const role = await admin.createAppRole(`${name} technicians ${tag}`);
  const tech = { userName: `t${letter.toLowerCase()}${tag}`, password: 'Tech-Passw0rd' };
  await admin.addTechnician(role._id, [device._id], tech);
  await client.login(tech.userName, tech.password);
  const now = new Date();
  const doctor = fakeDoctor(
    random,
    device.machineNumber,
    `${letter.toLowerCase()}${tag}`,
    role.roleId,
    'Doctor-Passw0rd',
    now,
  );
  await client.registerDoctors([doctor]);
  const signedIn = await client.login(doctor.username, 'Doctor-Passw0rd');
  const registered = Array.from({ length: patients }, (_, i) =>
    fakePatient(random, device.machineNumber, `p${i}`, now),
  );
  await client.registerPatients(registered);
  return {
    client,
    credential: client.credential!,
    patientIds: registered.map((p) => p.id),
    doctorUserId: signedIn.user.userId,
  };
}

export type Batch = { kind: 'access' | 'error' | 'treatments'; items: Array<{ id: string }> };

/** One round of what a machine sends: access logs, 5 error logs and 3 treatments, each item with its id. */
export function nextBatches(m: SyncingMachine, random: Rng, accessLogs = 20): Batch[] {
  const at = new Date();
  return [
    {
      kind: 'access',
      items: Array.from({ length: accessLogs }, () => fakeAccessLog(random, m.doctorUserId, at)),
    },
    { kind: 'error', items: Array.from({ length: 5 }, () => fakeErrorLog(random, m.doctorUserId, at)) },
    {
      kind: 'treatments',
      items: Array.from({ length: 3 }, (_, i) =>
        fakeTreatment(random, m.patientIds[i % m.patientIds.length]!, [], at),
      ),
    },
  ];
}

export const sendBatch = (m: SyncingMachine, batch: Batch): Promise<BatchResult> =>
  batch.kind === 'access'
    ? m.client.sendAccessLogs(batch.items as AccessLogItem[])
    : batch.kind === 'error'
      ? m.client.sendErrorLogs(batch.items as ErrorLogItem[])
      : m.client.sendTreatments(batch.items as TreatmentItem[]);
