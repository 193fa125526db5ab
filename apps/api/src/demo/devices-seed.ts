import { appRoutes, technicianRoutes } from '@app/fake-data/app-logs';
import { appPhone, fakeName, fakeResident } from '@app/fake-data/people';
import { cities, fakeClinic, type City } from '@app/fake-data/places';
import type { Rng } from '@app/fake-data/random';
import type { Db } from '../db/client.ts';
import { devices, doctors, patients, technicians } from '../db/schema/devices.ts';
import {
  demoUuid,
  insertInBatches,
  receivedAfter,
  seedAppLogs,
  seedTreatments,
} from './device-records-seed.ts';

export type DemoDevice = {
  id: string;
  machineNumber: string;
  serialNumber: string;
  city: string;
  country: string;
  createdAt: Date;
};

const day = 86_400_000;
const minute = 60_000;

/** The treatment app's releases the machines run (the demo's App Update list): versionCode → versionName. */
const appVersions = [
  { code: 20, name: '1.1.0' },
  { code: 30, name: '1.2.0' },
  { code: 40, name: '1.3.0' },
] as const;

/**
 * About 60 devices across real cities, each with doctors, technicians, patients, treatment records
 * with images, and the access and error logs its mobile app would have written, shaped like what
 * the app sends through the device API (user names like dr.anna.schmidt, the app's ids, receive
 * times, the app's real routes). Deterministic for a given generator and `now`.
 */
export async function seedDevices(db: Db, rng: Rng, now: Date): Promise<DemoDevice[]> {
  const usedEmails = new Set<string>();
  const usedNames = new Set<string>();
  /** A person as the app registers them: a lower-case user name, nick name, sex, age, where they live. */
  const person = (place: City, ages: [number, number]) => {
    for (;;) {
      const name = fakeName(rng);
      if (usedEmails.has(name.email)) continue;
      usedEmails.add(name.email);
      let handle = name.handle;
      for (let n = 2; usedNames.has(handle); n++) handle = `${name.handle}${n}`;
      usedNames.add(handle);
      return {
        name: name.name,
        handle,
        email: name.email,
        details: { nickName: name.first, ...fakeResident(rng, place, ages) },
      };
    }
  };

  const last = cities.length - 1;
  const deviceRows = cities.map((c, i) => {
    const createdAt = new Date(now.getTime() - (cities.length - i) * 6 * day - rng.int(0, 5 * 60) * minute);
    // Most devices run; about one in six is switched off. The newest one (the first row a newcomer opens) runs.
    const status = i === last || rng.chance(0.83) ? 2 : 1;
    // Running machines checked in minutes ago, a few have been quiet for hours; switched-off ones for days.
    const quietFor =
      status === 1
        ? rng.int(2, 20) * day
        : i !== last && rng.chance(0.1)
          ? rng.int(1, 48) * 60 * minute
          : rng.int(5, 280) * 1000;
    const version = rng.chance(0.6) ? appVersions[2] : rng.pick(appVersions);
    return {
      machineNumber: `MN-${String(1001 + i)}`,
      serialNumber: `SN-${2023 + (i % 3)}-${String(rng.int(10_000, 99_999))}${String.fromCharCode(65 + (i % 26))}`,
      ...fakeClinic(rng, c),
      city: c.city,
      country: c.country,
      status,
      createdAt,
      updatedAt: createdAt,
      lastSeenAt: new Date(now.getTime() - quietFor),
      appVersionCode: version.code,
      appVersionName: version.name,
      appPackage: 'com.treatment.device',
    };
  });
  // The running machine quiet the longest was switched off at its clinic over a day ago: the demo
  // fleet leaves it silent, so the Offline alarm has a machine to show (issue 35 item 1).
  const quietest = deviceRows
    .filter((r, i) => r.status === 2 && i !== last)
    .reduce((a, b) => (b.lastSeenAt < a.lastSeenAt ? b : a));
  const dayAndMore = new Date(now.getTime() - 30 * 60 * minute);
  if (quietest.lastSeenAt > dayAndMore) quietest.lastSeenAt = dayAndMore;
  const inserted = await db.insert(devices).values(deviceRows).returning({
    id: devices.id,
    machineNumber: devices.machineNumber,
    serialNumber: devices.serialNumber,
    city: devices.city,
    country: devices.country,
    createdAt: devices.createdAt,
  });

  const doctorRows: (typeof doctors.$inferInsert & { key: string })[] = [];
  const technicianRows: (typeof technicians.$inferInsert)[] = [];
  const patientPlans: {
    device: DemoDevice;
    doctorKey: string;
    row: Omit<typeof patients.$inferInsert, 'doctorId'>;
    treatments: number;
  }[] = [];

  inserted.forEach((device, i) => {
    const place = cities[i]!;
    const age = now.getTime() - device.createdAt.getTime();
    const when = (from = 0) =>
      new Date(device.createdAt.getTime() + from + rng.int(0, Math.max(1, age - from - day)));
    // A few devices are new and empty, so every empty text can be seen; never the newest one.
    const fresh = i % 15 === 14 && i !== last;
    const doctorCount = fresh ? 0 : rng.int(1, 4);
    for (let d = 0; d < doctorCount; d++) {
      const p = person(place, [28, 67]);
      const key = `${device.id}:${d}`;
      const createTime = when();
      doctorRows.push({
        key,
        deviceId: device.id,
        clientId: demoUuid(rng),
        receivedAt: receivedAfter(rng, createTime, now),
        userName: `dr.${p.handle}`,
        email: p.email,
        phonenumber: appPhone(rng),
        status: rng.chance(0.9) ? 2 : 1,
        createTime,
        ...p.details,
      });
      // The first device gets one busy doctor, so the patient pager has several pages; the newest
      // device's first doctor has a few patients under treatment, so its tabs are never empty.
      const patientCount = i === 0 && d === 0 ? 27 : i === last && d === 0 ? rng.int(4, 8) : rng.int(0, 9);
      for (let n = 0; n < patientCount; n++) {
        const pp = person(place, [18, 85]);
        const registered = when();
        patientPlans.push({
          device,
          doctorKey: key,
          row: {
            deviceId: device.id,
            clientId: demoUuid(rng),
            receivedAt: receivedAfter(rng, registered, now),
            patientname: pp.name,
            email: pp.email,
            phone: appPhone(rng),
            createTime: registered,
            ...pp.details,
          },
          treatments: i === last && d === 0 ? rng.int(1, 4) : rng.int(0, 4),
        });
      }
    }
    // Technicians are console users an admin assigned to the machine (no app id of their own).
    const techCount = fresh ? 0 : i === last ? rng.int(1, 2) : rng.int(0, 2);
    for (let n = 0; n < techCount; n++) {
      const p = person(place, [20, 60]);
      technicianRows.push({
        deviceId: device.id,
        userName: p.handle,
        email: p.email,
        phonenumber: appPhone(rng),
        status: rng.chance(0.85) ? 2 : 1,
        createTime: when(),
      });
    }
  });

  const doctorIds = new Map<
    string,
    { id: string; userId: number; email: string; deviceId: string; createTime: Date | null }
  >();
  await insertInBatches(doctorRows, async (batch) => {
    const rows = await db
      .insert(doctors)
      .values(batch.map(({ key: _key, ...row }) => row))
      .returning({
        id: doctors.id,
        userId: doctors.userId,
        email: doctors.email,
        deviceId: doctors.deviceId,
        createTime: doctors.createTime,
      });
    rows.forEach((r, k) => doctorIds.set(batch[k]!.key, r));
  });
  const techRows: { userId: number; email: string; deviceId: string; createTime: Date | null }[] = [];
  await insertInBatches(technicianRows, async (batch) => {
    techRows.push(
      ...(await db.insert(technicians).values(batch).returning({
        userId: technicians.userId,
        email: technicians.email,
        deviceId: technicians.deviceId,
        createTime: technicians.createTime,
      })),
    );
  });

  const patientRows: { id: string; plan: (typeof patientPlans)[number] }[] = [];
  await insertInBatches(patientPlans, async (batch) => {
    const rows = await db
      .insert(patients)
      .values(batch.map((p) => ({ ...p.row, doctorId: doctorIds.get(p.doctorKey)!.id })))
      .returning({ id: patients.id });
    rows.forEach((r, k) => patientRows.push({ ...r, plan: batch[k]! }));
  });

  await seedTreatments(db, rng, now, patientRows, doctorIds);
  await seedAppLogs(db, rng, now, inserted, [
    ...[...doctorIds.values()].map((d) => ({ ...d, resources: appRoutes, weight: 8 })),
    ...techRows.map((t) => ({ ...t, resources: [...appRoutes, ...technicianRoutes], weight: 4 })),
  ]);
  return inserted;
}
