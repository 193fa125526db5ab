import { randomBytes } from 'node:crypto';
import type { AdminClient } from '../tools/fleet-simulator/admin-client.ts';
import { DeviceClient } from '../tools/fleet-simulator/device-client.ts';
import { fakeDoctor, fakePatient, seededRandom } from '../tools/fleet-simulator/fake-data.ts';
import { eachLimited } from '../tools/fleet-simulator/pool.ts';

/*
 * The bench's fleet, made the way a real one is (through the admin API and the device API, many at
 * once): every machine enrolled; the first `withPeople` also get a technician who registers a doctor,
 * who signs in and registers a patient, so they can send treatment records.
 */

export type BenchMachine = {
  machineNumber: string;
  /** Headers of a call as the machine. */
  device: Record<string, string>;
  /** Headers of a call as its doctor (treatments), on the first `withPeople` machines. */
  person?: Record<string, string>;
  patientId?: string;
};

export async function provisionFleet(admin: AdminClient, url: string, count: number, withPeople: number) {
  const run = randomBytes(3).toString('hex');
  const clients: DeviceClient[] = new Array(count);
  const deviceIds: string[] = new Array(count);
  await eachLimited(
    Array.from({ length: count }, (_, i) => i),
    16,
    async (i) => {
      const device = await admin.addDevice({
        machineNumber: `BENCH-${run}-${i + 1}`,
        serialNumber: `SN-BENCH-${run}-${i + 1}`,
        location: 'Bench Clinic',
        latitude: 52.52,
        longitude: 13.405,
        city: 'Berlin',
        country: 'Germany',
        address: '1 Load Street',
      });
      const { code } = await admin.issueEnrolmentCode(device._id);
      const client = new DeviceClient({ baseUrl: url });
      await client.enrol(code);
      clients[i] = client;
      deviceIds[i] = device._id;
    },
  );

  const role = await admin.createAppRole(`Bench technicians ${run}`);
  const technician = { userName: `bench-tech-${run}`, password: `Tech-${randomBytes(6).toString('hex')}` };
  await admin.addTechnician(role._id, deviceIds.slice(0, withPeople), technician, {
    firstName: 'Bench',
    email: `${technician.userName}@bench.example`,
  });

  const machines: BenchMachine[] = clients.map((c) => ({
    machineNumber: c.machineNumber!,
    device: { authorization: `Device ${c.credential}` },
  }));
  await eachLimited(
    Array.from({ length: withPeople }, (_, i) => i),
    4,
    async (i) => {
      const client = clients[i]!;
      const random = seededRandom(i + 1);
      await client.login(technician.userName, technician.password);
      const password = `Doc-${randomBytes(6).toString('hex')}`;
      const doctor = fakeDoctor(
        random,
        client.machineNumber!,
        `bench${i}`,
        role.roleId,
        password,
        new Date(),
      );
      const doctors = await client.registerDoctors([doctor]);
      if (doctors.accepted !== 1) throw new Error(`registering a doctor: ${JSON.stringify(doctors.results)}`);
      const session = await client.login(doctor.username, password);
      const patient = fakePatient(random, client.machineNumber!, `benchp${i}`, new Date());
      const patients = await client.registerPatients([patient]);
      if (patients.accepted !== 1)
        throw new Error(`registering a patient: ${JSON.stringify(patients.results)}`);
      machines[i]!.person = { ...machines[i]!.device, 'x-app-session': session.accessToken };
      machines[i]!.patientId = patient.id;
    },
  );
  return { machines };
}
