import { and, eq, inArray } from 'drizzle-orm';
import { deviceApiMessages, treatmentItemSchema, type BatchResult } from '@app/contract/device-api';
import type { Db } from '#api/db/client.ts';
import { patients } from '#api/db/schema/devices.ts';
import { treatmentImages, treatmentRecords } from '#api/db/schema/treatments.ts';
import type { AppUserContext, DeviceContext } from '../device-auth.ts';
import { answer, notStoredYet, parseBatch, pending, refuse } from './batch.ts';
import { cleanTreatmentImage } from './treatment-images.ts';

/*
 * Treatment records a doctor sends, with their pictures. The item names its patient by the id the
 * app gave the patient; it must be a patient of this doctor on this machine. A record and its
 * images are written in one transaction, so an acknowledged record always has its pictures.
 */

export function createTreatmentsSyncService({ db, now }: { db: Db; now: () => Date }) {
  return {
    async record(device: DeviceContext, doctor: AppUserContext, items: unknown[]): Promise<BatchResult> {
      const at = now();
      const slots = parseBatch(items, treatmentItemSchema, {
        now: at,
        timeFields: ['treatmentStartTime', 'treatmentEndTime'],
      });
      for (const slot of pending(slots))
        if (Date.parse(slot.value.treatmentEndTime) < Date.parse(slot.value.treatmentStartTime))
          refuse(slot, 'treatmentEndTime', 'treatmentEndTime must not be before treatmentStartTime');
      let live = pending(slots);
      if (!live.length) return answer(slots);

      // A retry: accepted again, its pictures not decoded again.
      live = await notStoredYet(db, treatmentRecords, device.deviceId, live);
      if (!live.length) return answer(slots);

      const patientRows = await db
        .select({ id: patients.id, clientId: patients.clientId, name: patients.patientname })
        .from(patients)
        .where(
          and(
            eq(patients.deviceId, device.deviceId),
            eq(patients.doctorId, doctor.id),
            inArray(patients.clientId, [...new Set(live.map((s) => s.value.patientId.toLowerCase()))]),
          ),
        );
      const patientOf = new Map(patientRows.map((p) => [p.clientId!, p]));

      const records: {
        slot: (typeof live)[number];
        patient: (typeof patientRows)[number];
        urls: string[];
      }[] = [];
      for (const slot of live) {
        const patient = patientOf.get(slot.value.patientId.toLowerCase());
        if (!patient) {
          refuse(slot, 'patientId', deviceApiMessages.patientNotFound);
          continue;
        }
        // One picture at a time: decoding is the heavy part, and sharp already uses its own threads.
        const urls: string[] = [];
        for (const [n, image] of slot.value.treatmentImages.entries()) {
          const clean = await cleanTreatmentImage(image.data);
          if ('problem' in clean) {
            refuse(slot, `treatmentImages[${n}].data`, clean.problem);
            break;
          }
          urls.push(clean.url);
        }
        if (!slot.reason) records.push({ slot, patient, urls });
      }
      if (!records.length) return answer(slots);

      await db.transaction(async (tx) => {
        const inserted = await tx
          .insert(treatmentRecords)
          .values(
            records.map(({ slot: { key, value: item }, patient }) => ({
              deviceId: device.deviceId,
              doctorId: doctor.id,
              patientId: patient.id,
              userName: patient.name,
              treatmentDevice: item.treatmentDevice,
              treatmentPlan: item.treatmentPlan,
              treatmentStartTime: new Date(item.treatmentStartTime),
              treatmentEndTime: new Date(item.treatmentEndTime),
              treatmentDuration: item.treatmentDuration,
              treatmentEnergy: item.treatmentEnergy,
              totalEnergyOutput: item.totalEnergyOutput,
              createdAt: new Date(item.treatmentEndTime),
              clientId: key,
              receivedAt: at,
            })),
          )
          // A concurrent copy of the same batch got there first: its row (and pictures) stand.
          .onConflictDoNothing({ target: [treatmentRecords.deviceId, treatmentRecords.clientId] })
          .returning({ id: treatmentRecords.id, clientId: treatmentRecords.clientId });
        const byKey = new Map(records.map((r) => [r.slot.key, r]));
        const images = inserted.flatMap((row) =>
          byKey.get(row.clientId!)!.urls.map((url, position) => ({
            treatmentId: row.id,
            url,
            position,
            clientId: byKey.get(row.clientId!)!.slot.value.treatmentImages[position]!.id,
          })),
        );
        if (images.length) await tx.insert(treatmentImages).values(images);
      });
      return answer(slots);
    },
  };
}
