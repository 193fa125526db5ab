import type { Db } from '../db/client.ts';
import {
  devices,
  doctors,
  patients,
  technicians,
  treatmentImages,
  treatmentRecords,
} from '../db/schema/devices.ts';
import { accessLogs, errorLogs } from '../db/schema/logs.ts';
import { cities } from './cities.ts';
import { treatmentImage } from './images.ts';
import type { Rng } from './rng.ts';

export type DemoDevice = {
  id: string;
  machineNumber: string;
  serialNumber: string;
  city: string;
  country: string;
  createdAt: Date;
};

const firstNames = [
  'Anna',
  'Ben',
  'Clara',
  'David',
  'Elena',
  'Felix',
  'Grace',
  'Hugo',
  'Ines',
  'Jonas',
  'Kira',
  'Liam',
  'Maya',
  'Noah',
  'Olivia',
  'Paul',
  'Rosa',
  'Samir',
  'Tara',
  'Umar',
  'Vera',
  'Yusuf',
  'Zoe',
  'Lucas',
  'Amira',
  'Mateo',
  'Sofia',
  'Ethan',
  'Hana',
  'Leon',
];
const lastNames = [
  'Schmidt',
  'Rossi',
  'Dubois',
  'García',
  'Jensen',
  'Novak',
  'Kowalski',
  'Silva',
  'Müller',
  'Bianchi',
  'Martin',
  'Lindqvist',
  'Okafor',
  'Tanaka',
  'Kim',
  'Patel',
  'Smith',
  'Nguyen',
  'Cohen',
  'Haddad',
  'Fischer',
  'Moreau',
  'Larsen',
  'Costa',
];
const practices = [
  'Physio Clinic',
  'Sports Medicine Centre',
  'Orthopaedic Practice',
  'Rehab Centre',
  'Pain Clinic',
  'Medical Centre',
];
const districts = [
  'Central',
  'North',
  'South',
  'East',
  'West',
  'Riverside',
  'Old Town',
  'Harbour',
  'University',
  'Park',
];
const models = ['ShockWave S1', 'ShockWave S2 Pro', 'RadialWave R5', 'FocusWave F3'];
const plans = [
  'Plantar fasciitis, 5 sessions',
  'Tennis elbow, 4 sessions',
  'Achilles tendinopathy, 6 sessions',
  'Calcific shoulder, 3 sessions',
  'Patellar tendinopathy, 5 sessions',
  'Lower back pain, 6 sessions',
  'Hip bursitis, 4 sessions',
  'Myofascial trigger points, 3 sessions',
];
const appResources = [
  'POST /api/v1/app/login',
  'GET /api/v1/app/patients',
  'POST /api/v1/app/patients',
  'GET /api/v1/app/treatments',
  'POST /api/v1/app/treatments',
  'POST /api/v1/app/treatments/images',
  'GET /api/v1/app/updates/latest',
  'PUT /api/v1/app/device/status',
];
const appErrors = [
  {
    resource: 'POST /api/v1/app/treatments/images',
    functionName: 'uploadTreatmentImage',
    statusCode: 413,
    message: 'Image is larger than 5 MB',
  },
  {
    resource: 'POST /api/v1/app/treatments',
    functionName: 'syncTreatment',
    statusCode: 409,
    message: 'Treatment already synced',
  },
  {
    resource: 'POST /api/v1/app/login',
    functionName: 'login',
    statusCode: 401,
    message: 'Invalid email or password',
  },
  {
    resource: 'PUT /api/v1/app/device/status',
    functionName: 'reportDeviceStatus',
    statusCode: 503,
    message: 'Device reported a low battery and stopped the session',
  },
  {
    resource: 'GET /api/v1/app/updates/latest',
    functionName: 'checkForUpdate',
    statusCode: 504,
    message: 'Update server did not answer in time',
  },
];

const day = 86_400_000;
const minute = 60_000;
const ascii = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');
const phone = (rng: Rng) => `+${rng.int(1, 49)}${String(rng.int(100_000_000, 999_999_999))}${rng.int(0, 9)}`;
const ip = (rng: Rng) => `${rng.pick(['203.0.113', '198.51.100', '192.0.2'])}.${rng.int(2, 254)}`;

async function insertInBatches<T>(rows: T[], insert: (batch: T[]) => Promise<unknown>, size = 400) {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

/**
 * About 60 devices across real cities, each with doctors, technicians, patients, treatment records
 * with images, and the access and error logs its mobile app would have written. Deterministic for a
 * given generator and `now` (only the dates move with `now`).
 */
export async function seedDevices(db: Db, rng: Rng, now: Date): Promise<DemoDevice[]> {
  const person = () => {
    const first = rng.pick(firstNames);
    const last = rng.pick(lastNames);
    return {
      name: `${first} ${last}`,
      email: `${ascii(first)}.${ascii(last)}${rng.int(1, 99)}@${rng.pick(['example.com', 'example.org', 'example.net'])}`,
    };
  };
  const usedEmails = new Set<string>();
  const uniquePerson = () => {
    for (;;) {
      const p = person();
      if (!usedEmails.has(p.email)) {
        usedEmails.add(p.email);
        return p;
      }
    }
  };

  const deviceRows = cities.map((c, i) => {
    const createdAt = new Date(now.getTime() - (cities.length - i) * 6 * day - rng.int(0, 5 * 60) * minute);
    return {
      machineNumber: `MN-${String(1001 + i)}`,
      serialNumber: `SN-${2023 + (i % 3)}-${String(rng.int(10_000, 99_999))}${String.fromCharCode(65 + (i % 26))}`,
      location: `${rng.pick(districts)} ${rng.pick(practices)}`,
      latitude: Number((c.lat + rng.float(-0.03, 0.03, 4)).toFixed(4)),
      longitude: Number((c.lon + rng.float(-0.03, 0.03, 4)).toFixed(4)),
      city: c.city,
      country: c.country,
      address: `${rng.int(1, 240)} ${rng.pick(c.streets)}, ${c.city}`,
      // Most devices run; about one in six is switched off.
      status: rng.chance(0.83) ? 2 : 1,
      createdAt,
      updatedAt: createdAt,
    };
  });
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
    name: string;
    email: string;
    createTime: Date;
    treatments: number;
  }[] = [];

  inserted.forEach((device, i) => {
    const age = now.getTime() - device.createdAt.getTime();
    const when = (from = 0) =>
      new Date(device.createdAt.getTime() + from + rng.int(0, Math.max(1, age - from - day)));
    // A few devices are new and empty, so every empty text can be seen.
    const fresh = i % 15 === 14;
    const doctorCount = fresh ? 0 : rng.int(1, 4);
    for (let d = 0; d < doctorCount; d++) {
      const p = uniquePerson();
      const key = `${device.id}:${d}`;
      doctorRows.push({
        key,
        deviceId: device.id,
        userName: `Dr. ${p.name}`,
        email: p.email,
        phonenumber: rng.chance(0.9) ? phone(rng) : null,
        address: rng.chance(0.85)
          ? `${rng.int(1, 120)} ${rng.pick(cities[i]!.streets)}, ${device.city}`
          : null,
        status: rng.chance(0.9) ? 2 : 1,
        createTime: rng.chance(0.95) ? when() : null,
      });
      // The first device gets one busy doctor, so the patient pager has several pages.
      const patientCount = i === 0 && d === 0 ? 27 : rng.int(0, 9);
      for (let n = 0; n < patientCount; n++) {
        const pp = uniquePerson();
        patientPlans.push({
          device,
          doctorKey: key,
          name: pp.name,
          email: pp.email,
          createTime: when(),
          treatments: rng.int(0, 4),
        });
      }
    }
    const techCount = fresh ? 0 : rng.int(0, 2);
    for (let n = 0; n < techCount; n++) {
      const p = uniquePerson();
      technicianRows.push({
        deviceId: device.id,
        userName: p.name,
        email: p.email,
        phonenumber: phone(rng),
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

  const patientRows: { id: string; userId: number; email: string; plan: (typeof patientPlans)[number] }[] =
    [];
  await insertInBatches(patientPlans, async (batch) => {
    const rows = await db
      .insert(patients)
      .values(
        batch.map((p) => ({
          deviceId: p.device.id,
          doctorId: doctorIds.get(p.doctorKey)!.id,
          patientname: p.name,
          email: p.email,
          phone: rng.chance(0.9) ? phone(rng) : null,
          createTime: p.createTime,
        })),
      )
      .returning({ id: patients.id, userId: patients.userId, email: patients.email });
    rows.forEach((r, k) => patientRows.push({ ...r, plan: batch[k]! }));
  });

  // Treatments: each patient's sessions follow their registration, a few days apart.
  const treatmentPlans: { row: typeof treatmentRecords.$inferInsert; images: number }[] = [];
  for (const patient of patientRows) {
    const { plan } = patient;
    const doctor = doctorIds.get(plan.doctorKey)!;
    const course = rng.pick(plans);
    let start = plan.createTime.getTime() + rng.int(1, 72) * 60 * minute;
    for (let s = 0; s < plan.treatments && start < now.getTime() - 2 * 60 * minute; s++) {
      const duration = rng.int(8, 40);
      const energy = rng.float(0.05, 0.45, 2);
      const pulses = rng.int(1500, 3000);
      const end = start + duration * minute;
      treatmentPlans.push({
        row: {
          deviceId: plan.device.id,
          doctorId: doctor.id,
          patientId: patient.id,
          userName: plan.name,
          treatmentDevice: rng.pick(models),
          treatmentPlan: course,
          treatmentStartTime: new Date(start),
          treatmentEndTime: new Date(end),
          treatmentDuration: duration,
          treatmentEnergy: energy,
          totalEnergyOutput: Number((energy * pulses).toFixed(1)),
          createdAt: new Date(end + rng.int(1, 30) * minute),
        },
        images: rng.int(0, 3),
      });
      start += rng.int(3, 10) * day;
    }
  }
  const imageRows: (typeof treatmentImages.$inferInsert)[] = [];
  await insertInBatches(treatmentPlans, async (batch) => {
    const rows = await db
      .insert(treatmentRecords)
      .values(batch.map((b) => b.row))
      .returning({ id: treatmentRecords.id });
    rows.forEach((r, k) => {
      for (let n = 0; n < batch[k]!.images; n++) {
        imageRows.push({
          treatmentId: r.id,
          url: treatmentImage(rng, `Session image ${n + 1}`),
          position: n,
        });
      }
    });
  });
  await insertInBatches(imageRows, (batch) => db.insert(treatmentImages).values(batch), 200);

  // What the devices' mobile apps logged: each app user signs in, syncs patients and treatments.
  const appUsers = [
    ...[...doctorIds.values()].map((d) => ({ ...d, since: d.createTime, weight: 8 })),
    ...techRows.map((t) => ({ ...t, since: t.createTime, weight: 4 })),
    ...patientRows.map((p) => ({
      userId: p.userId,
      email: p.email,
      deviceId: p.plan.device.id,
      since: p.plan.createTime,
      weight: 1,
    })),
  ];
  const machineOf = new Map(inserted.map((d) => [d.id, d]));
  const accessRows: (typeof accessLogs.$inferInsert)[] = [];
  const errorRows: (typeof errorLogs.$inferInsert)[] = [];
  for (const user of appUsers) {
    const device = machineOf.get(user.deviceId)!;
    // An app user's logs start when they were registered (or with the device).
    const from = (user.since ?? device.createdAt).getTime();
    const span = Math.max(60_000, now.getTime() - from);
    const where = ip(rng);
    for (let n = rng.int(user.weight, user.weight * 4); n > 0; n--) {
      accessRows.push({
        createdAt: new Date(from + rng.int(0, span)),
        userId: String(user.userId),
        userEmail: user.email,
        resource: rng.pick(appResources),
        location: where,
        statusCode: 200,
        durationMs: rng.int(12, 480),
        machineNumber: device.machineNumber,
      });
    }
    if (rng.chance(user.weight > 1 ? 0.7 : 0.2)) {
      for (let n = rng.int(1, 3); n > 0; n--) {
        const e = rng.pick(appErrors);
        errorRows.push({
          ...e,
          createdAt: new Date(from + rng.int(0, span)),
          userId: String(user.userId),
          userEmail: user.email,
          location: where,
          machineNumber: device.machineNumber,
        });
      }
    }
  }
  await insertInBatches(accessRows, (batch) => db.insert(accessLogs).values(batch), 500);
  await insertInBatches(errorRows, (batch) => db.insert(errorLogs).values(batch), 500);

  return inserted;
}
