import { and, asc, desc, eq, or, sql, type SQL } from 'drizzle-orm';
import { maskName } from '@app/contract/masking';
import {
  treatmentExportColumns,
  treatmentFacetLimit,
  treatmentMessages,
  type TreatmentExportQuery,
  type TreatmentFacets,
  type TreatmentFacetsQuery,
  type Treatment,
  type TreatmentDetail,
  type TreatmentList,
} from '@app/contract/treatments';
import { dayRange } from '#api/lib/day-range.ts';
import type { Db } from '#api/db/client.ts';
import { devices, doctors } from '#api/db/schema/devices.ts';
import { treatmentImages, treatmentRecords } from '#api/db/schema/treatments.ts';
import { afterCursor, cursorAt, keysetCsv } from '#api/lib/csv-export.ts';
import { chosenColumns, type Cell } from '#api/lib/export-columns.ts';
import { NotFoundError } from '#api/lib/errors.ts';
import { containsPattern, offsetOf, pageCount } from '#api/lib/pagination.ts';

export type TreatmentListParams = {
  page: number;
  limit: number;
  machineNumber?: string;
  doctorId?: string;
  patientId?: string;
  search?: string;
  treatmentPlan?: string;
  treatmentDevice?: string;
  /** UTC days, both included, of when the treatments took place (treated_at). */
  from?: string;
  to?: string;
};

const columns = {
  _id: treatmentRecords.id,
  userName: treatmentRecords.userName,
  treatmentDevice: treatmentRecords.treatmentDevice,
  treatmentPlan: treatmentRecords.treatmentPlan,
  treatmentStartTime: treatmentRecords.treatmentStartTime,
  treatmentEndTime: treatmentRecords.treatmentEndTime,
  treatmentDuration: treatmentRecords.treatmentDuration,
  treatmentEnergy: treatmentRecords.treatmentEnergy,
  totalEnergyOutput: treatmentRecords.totalEnergyOutput,
  machineNumber: devices.machineNumber,
  doctorId: treatmentRecords.doctorId,
  doctorName: doctors.userName,
  patientId: treatmentRecords.patientId,
  createdAt: treatmentRecords.createdAt,
};
const exportColumns = {
  id: treatmentRecords.id,
  userName: treatmentRecords.userName,
  treatmentDevice: treatmentRecords.treatmentDevice,
  treatmentPlan: treatmentRecords.treatmentPlan,
  treatmentStartTime: treatmentRecords.treatmentStartTime,
  treatmentDuration: treatmentRecords.treatmentDuration,
  totalEnergyOutput: treatmentRecords.totalEnergyOutput,
};
type Row = Omit<Treatment, 'treatmentStartTime' | 'treatmentEndTime' | 'createdAt'> & {
  treatmentStartTime: Date | null;
  treatmentEndTime: Date | null;
  createdAt: Date;
};

const iso = (d: Date | null) => (d ? d.toISOString() : null);
type ExportRow = Pick<Row, Exclude<keyof typeof exportColumns, 'id'>>;
/** The export's cells, keyed as the list's columns; the patient's name masked unless `reveal`. */
const exportCells = (
  reveal: boolean,
): Record<keyof typeof treatmentExportColumns, (t: ExportRow) => Cell> => ({
  userName: (t) => (reveal ? t.userName : maskName(t.userName)),
  treatmentDevice: (t) => t.treatmentDevice,
  treatmentPlan: (t) => t.treatmentPlan,
  treatmentStartTime: (t) => iso(t.treatmentStartTime),
  treatmentDuration: (t) => t.treatmentDuration,
  totalEnergyOutput: (t) => t.totalEnergyOutput,
});
const toTreatment = (r: Row): Treatment => ({
  ...r,
  treatmentStartTime: iso(r.treatmentStartTime),
  treatmentEndTime: iso(r.treatmentEndTime),
  createdAt: r.createdAt.toISOString(),
});

type TreatmentFilters = Omit<TreatmentListParams, 'page' | 'limit'>;

/**
 * The list's conditions (device, doctor, patient, plan, treatment device, day range, search), shared
 * with its export and its facets.
 */
function treatmentsWhere(q: TreatmentFilters) {
  const pattern = q.search ? containsPattern(q.search) : undefined;
  return and(
    q.treatmentPlan ? eq(treatmentRecords.treatmentPlan, q.treatmentPlan) : undefined,
    q.treatmentDevice ? eq(treatmentRecords.treatmentDevice, q.treatmentDevice) : undefined,
    q.machineNumber
      ? sql`${treatmentRecords.deviceId} = (select ${devices.id} from ${devices} where lower(${devices.machineNumber}) = lower(${q.machineNumber}))`
      : undefined,
    q.doctorId ? eq(treatmentRecords.doctorId, q.doctorId) : undefined,
    q.patientId ? eq(treatmentRecords.patientId, q.patientId) : undefined,
    ...dayRange(treatmentRecords.treatedAt, q.from, q.to),
    pattern
      ? or(
          sql`${treatmentRecords.userName} ilike ${pattern}`,
          sql`${treatmentRecords.treatmentPlan} ilike ${pattern}`,
          sql`${treatmentRecords.treatmentDevice} ilike ${pattern}`,
        )
      : undefined,
  );
}

export function createTreatmentsService({ db }: { db: Db }) {
  return {
    /**
     * Newest first: the latest started (treated_at, issue 35); filtered by machine, doctor, patient,
     * plan, treatment device or day, and searched by patient name, plan or device.
     */
    async list(q: TreatmentListParams): Promise<TreatmentList> {
      const where = treatmentsWhere(q);
      const [rows, total] = await Promise.all([
        db
          .select(columns)
          .from(treatmentRecords)
          .innerJoin(devices, eq(devices.id, treatmentRecords.deviceId))
          .leftJoin(doctors, eq(doctors.id, treatmentRecords.doctorId))
          .where(where)
          .orderBy(desc(treatmentRecords.treatedAt), desc(treatmentRecords.id))
          .limit(q.limit)
          .offset(offsetOf(q.page, q.limit)),
        db
          .select({ total: sql<number>`count(*)::int` })
          .from(treatmentRecords)
          .where(where)
          .then((r) => r[0]!.total),
      ]);
      return {
        data: rows.map(toTreatment),
        total_pages: pageCount(total, q.limit),
        total,
        page: q.page,
        limit: q.limit,
      };
    },

    /**
     * The list's rows and columns as CSV, newest first (decision 056). The patient's name is what
     * ties the treatment to a person: masked unless the admin asked, with patients.reveal, for the
     * file unmasked (decision 058).
     */
    exportCsv: (q: TreatmentExportQuery, counted: (rows: number) => void) =>
      keysetCsv(
        chosenColumns(treatmentExportColumns, exportCells(q.reveal === 'true'), q.columns),
        (after, size) =>
          db
            .select({ ...exportColumns, cursorAt: cursorAt(treatmentRecords.treatedAt) })
            .from(treatmentRecords)
            .where(
              and(treatmentsWhere(q), afterCursor(treatmentRecords.treatedAt, treatmentRecords.id, after)),
            )
            .orderBy(desc(treatmentRecords.treatedAt), desc(treatmentRecords.id))
            .limit(size),
        counted,
      ),

    /**
     * The plans and treatment devices among the treatments the other filters leave, each with its
     * count, most first: a facet's own choice does not narrow its own values, so the admin can switch.
     */
    async facets(q: TreatmentFacetsQuery): Promise<TreatmentFacets> {
      const values = async (
        column: typeof treatmentRecords.treatmentPlan | typeof treatmentRecords.treatmentDevice,
        where: SQL | undefined,
      ) =>
        (
          await db
            .select({ value: column, count: sql<number>`count(*)::int` })
            .from(treatmentRecords)
            .where(where)
            .groupBy(column)
            .orderBy(desc(sql`count(*)`), column)
            .limit(treatmentFacetLimit)
        ).map((r) => ({ value: r.value, label: r.value, count: r.count }));
      const [treatmentPlans, treatmentDevices] = await Promise.all([
        values(treatmentRecords.treatmentPlan, treatmentsWhere({ ...q, treatmentPlan: undefined })),
        values(treatmentRecords.treatmentDevice, treatmentsWhere({ ...q, treatmentDevice: undefined })),
      ]);
      return { treatmentPlans, treatmentDevices };
    },

    async get(id: string): Promise<TreatmentDetail> {
      const [row] = await db
        .select(columns)
        .from(treatmentRecords)
        .innerJoin(devices, eq(devices.id, treatmentRecords.deviceId))
        .leftJoin(doctors, eq(doctors.id, treatmentRecords.doctorId))
        .where(eq(treatmentRecords.id, id));
      if (!row) throw new NotFoundError(treatmentMessages.notFound);
      const images = await db
        .select({ id: treatmentImages.id, url: treatmentImages.url })
        .from(treatmentImages)
        .where(eq(treatmentImages.treatmentId, id))
        .orderBy(asc(treatmentImages.position), asc(treatmentImages.id));
      return { ...toTreatment(row), treatmentImages: images };
    },
  };
}
export type TreatmentsService = ReturnType<typeof createTreatmentsService>;
