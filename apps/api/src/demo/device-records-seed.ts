import { appErrors, fakeIp } from '@app/fake-data/app-logs';
import type { Rng } from '@app/fake-data/random';
import { fakeSession, treatmentPlans } from '@app/fake-data/treatments';
import type { Db } from '../db/client.ts';
import { treatmentImages, treatmentRecords } from '../db/schema/treatments.ts';
import { accessLogs, errorLogs } from '../db/schema/logs.ts';
import type { DemoDevice } from './devices-seed.ts';
import { treatmentImage } from './images.ts';

/*
 * The demo machines' records as the device API stores what the app sends: the app's ids
 * (client_id), the device's times, and the server's receive time a little later.
 */

const day = 86_400_000;
const minute = 60_000;
const hex = (rng: Rng, n: number) => Array.from({ length: n }, () => rng.int(0, 15).toString(16)).join('');
/** A version 4 UUID from the seeded generator: the ids the app generates, deterministic here. */
export const demoUuid = (rng: Rng) =>
  `${hex(rng, 8)}-${hex(rng, 4)}-4${hex(rng, 3)}-${rng.pick(['8', '9', 'a', 'b'])}${hex(rng, 3)}-${hex(rng, 12)}`;
/** When the server got what the app recorded: seconds later, now and then hours (the app was offline). */
export const receivedAfter = (rng: Rng, deviceTime: Date, now: Date) =>
  new Date(
    Math.min(
      now.getTime(),
      deviceTime.getTime() + (rng.chance(0.9) ? rng.int(2, 90) * 1000 : rng.int(1, 30) * 60 * minute),
    ),
  );

export async function insertInBatches<T>(rows: T[], insert: (batch: T[]) => Promise<unknown>, size = 400) {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

/** Treatments: each patient's sessions follow their registration, a few days apart; the app's ids on each. */
export async function seedTreatments(
  db: Db,
  rng: Rng,
  now: Date,
  patientRows: {
    id: string;
    plan: {
      doctorKey: string;
      row: { patientname: string; createTime?: Date | null; deviceId: string };
      treatments: number;
    };
  }[],
  doctorIds: Map<string, { id: string }>,
) {
  const sessions: { row: typeof treatmentRecords.$inferInsert; images: number }[] = [];
  for (const patient of patientRows) {
    const { plan } = patient;
    const course = rng.pick(treatmentPlans);
    let start = plan.row.createTime!.getTime() + rng.int(1, 72) * 60 * minute;
    for (let s = 0; s < plan.treatments && start < now.getTime() - 2 * 60 * minute; s++) {
      const session = fakeSession(rng);
      const end = new Date(start + session.duration * minute);
      sessions.push({
        row: {
          deviceId: plan.row.deviceId,
          doctorId: doctorIds.get(plan.doctorKey)!.id,
          patientId: patient.id,
          userName: plan.row.patientname,
          treatmentDevice: session.model,
          treatmentPlan: course,
          treatmentStartTime: new Date(start),
          treatmentEndTime: end,
          treatmentDuration: session.duration,
          treatmentEnergy: session.energy,
          totalEnergyOutput: session.totalEnergyOutput,
          // As the device API stores it: the device's end time, and when the server got it.
          createdAt: end,
          clientId: demoUuid(rng),
          receivedAt: receivedAfter(rng, end, now),
        },
        images: rng.int(0, 3),
      });
      start += rng.int(3, 10) * day;
    }
  }
  const imageRows: (typeof treatmentImages.$inferInsert)[] = [];
  await insertInBatches(sessions, async (batch) => {
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
          clientId: demoUuid(rng),
        });
      }
    });
  });
  await insertInBatches(imageRows, (batch) => db.insert(treatmentImages).values(batch), 200);
}

/**
 * The access and error logs the machines' apps sent (POST /api/v1/app/access-logs and error-logs):
 * the app's routes as resources, device time, the app's id and the server's receive time.
 */
export async function seedAppLogs(
  db: Db,
  rng: Rng,
  now: Date,
  machines: DemoDevice[],
  appUsers: {
    userId: number;
    email: string;
    deviceId: string;
    createTime: Date | null;
    resources: readonly string[];
    weight: number;
  }[],
) {
  const machineOf = new Map(machines.map((d) => [d.id, d]));
  const accessRows: (typeof accessLogs.$inferInsert)[] = [];
  const errorRows: (typeof errorLogs.$inferInsert)[] = [];
  // The newest machine (first in the console's list) always has errors to show.
  const newest = machines.reduce((a, b) => (b.createdAt > a.createdAt ? b : a)).id;
  for (const user of appUsers) {
    const device = machineOf.get(user.deviceId)!;
    // An app user's logs start when they were registered (or with the device).
    const from = (user.createTime ?? device.createdAt).getTime();
    const span = Math.max(60_000, now.getTime() - from);
    const where = fakeIp(rng);
    const common = () => {
      const createdAt = new Date(from + rng.int(0, span));
      return {
        createdAt,
        receivedAt: receivedAfter(rng, createdAt, now),
        clientId: demoUuid(rng),
        userId: String(user.userId),
        userEmail: user.email,
        location: where,
        machineNumber: device.machineNumber,
        statusCode: null,
      };
    };
    for (let n = rng.int(user.weight, user.weight * 4); n > 0; n--)
      accessRows.push({ ...common(), resource: rng.pick(user.resources) });
    if (user.deviceId === newest || rng.chance(0.7)) {
      for (let n = rng.int(1, 3); n > 0; n--) {
        const { resource, functionName, message } = rng.pick(appErrors);
        errorRows.push({ ...common(), resource, functionName, message });
      }
    }
  }
  await insertInBatches(accessRows, (batch) => db.insert(accessLogs).values(batch), 500);
  await insertInBatches(errorRows, (batch) => db.insert(errorLogs).values(batch), 500);
}
