import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { deviceApiMessages } from '@app/contract/device-api';
import type { Db } from '#api/db/client.ts';
import { doctors, patients } from '#api/db/schema/devices.ts';
import { treatmentImages, treatmentRecords } from '#api/db/schema/treatments.ts';
import { ForbiddenError } from '#api/lib/errors.ts';
import type { AppUserContext, DeviceContext } from '../device-auth.ts';

/*
 * What the app may read back, scoped twice: to its machine (every query names the device) and to
 * the person signed in (a doctor reads only their own patients and treatments, a technician the
 * machine's doctors). Lists per machine and doctor are small, so an exact count is cheap here.
 */

type Page = { page: number; limit: number };
const iso = (d: Date | null) => (d ? d.toISOString() : null);

function onlyDoctor(user: AppUserContext) {
  if (user.kind !== 'doctor') throw new ForbiddenError(deviceApiMessages.onlyDoctors);
}

export function createAppReadsService({ db }: { db: Db }) {
  async function paged<T>(
    table: PgTable,
    where: SQL | undefined,
    q: Page,
    rows: (offset: number) => Promise<T[]>,
  ) {
    const [total] = await db.select({ n: count() }).from(table).where(where);
    return { data: await rows((q.page - 1) * q.limit), total: total?.n ?? 0, page: q.page, limit: q.limit };
  }
  // Newest first (the machine's own time), id as the tie-breaker: the per-device indexes serve it.
  const newest = (time: PgColumn, id: PgColumn) => [sql`${time} desc nulls last`, desc(id)];

  return {
    /** A technician: the machine's doctors; a doctor: only themself. */
    async doctors(device: DeviceContext, user: AppUserContext, q: Page) {
      const where = and(
        eq(doctors.deviceId, device.deviceId),
        user.kind === 'doctor' ? eq(doctors.id, user.id) : undefined,
      );
      return paged(doctors, where, q, async (offset) =>
        (
          await db
            .select()
            .from(doctors)
            .where(where)
            .orderBy(...newest(doctors.createTime, doctors.id))
            .limit(q.limit)
            .offset(offset)
        ).map((d) => ({
          _id: d.id,
          clientId: d.clientId,
          userId: d.userId,
          userName: d.userName,
          email: d.email,
          phonenumber: d.phonenumber,
          createTime: iso(d.createTime),
        })),
      );
    },

    async patients(device: DeviceContext, user: AppUserContext, q: Page) {
      onlyDoctor(user);
      const where = and(eq(patients.deviceId, device.deviceId), eq(patients.doctorId, user.id));
      return paged(patients, where, q, async (offset) =>
        (
          await db
            .select()
            .from(patients)
            .where(where)
            .orderBy(...newest(patients.createTime, patients.id))
            .limit(q.limit)
            .offset(offset)
        ).map((p) => ({
          _id: p.id,
          clientId: p.clientId,
          userId: p.userId,
          patientname: p.patientname,
          email: p.email,
          phone: p.phone,
          createTime: iso(p.createTime),
        })),
      );
    },

    /** patientId is the patient's id as the app gave it (null for patients registered elsewhere). */
    async treatments(device: DeviceContext, user: AppUserContext, q: Page) {
      onlyDoctor(user);
      const where = and(
        eq(treatmentRecords.deviceId, device.deviceId),
        eq(treatmentRecords.doctorId, user.id),
      );
      return paged(treatmentRecords, where, q, async (offset) =>
        (
          await db
            .select({
              t: treatmentRecords,
              patientClientId: patients.clientId,
              imageCount:
                sql<number>`(select count(*) from ${treatmentImages} where ${treatmentImages.treatmentId} = ${treatmentRecords.id})`.mapWith(
                  Number,
                ),
            })
            .from(treatmentRecords)
            .leftJoin(patients, eq(patients.id, treatmentRecords.patientId))
            .where(where)
            // The latest started first (treated_at is never null), as the console lists them.
            .orderBy(desc(treatmentRecords.treatedAt), desc(treatmentRecords.id))
            .limit(q.limit)
            .offset(offset)
        ).map(({ t, patientClientId, imageCount }) => ({
          _id: t.id,
          clientId: t.clientId,
          patientId: patientClientId,
          userName: t.userName,
          treatmentPlan: t.treatmentPlan,
          treatmentStartTime: iso(t.treatmentStartTime),
          treatmentEndTime: iso(t.treatmentEndTime),
          imageCount,
        })),
      );
    },
  };
}
