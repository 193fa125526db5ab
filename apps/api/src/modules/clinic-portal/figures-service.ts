import { sql } from 'drizzle-orm';
import { formerMachineLabel, noDoctorLabel, otherClinicDoctorLabel } from '@app/contract/clinic-portal-texts';
import type { Figures, FiguresQuery, UsageQuery, UsageReport } from '@app/contract/clinic-portal';
import type { Db } from '#api/db/client.ts';
import { rowsOf } from '#api/db/rows-of.ts';
import { withCustomerScope } from '#api/lib/customer-scope.ts';
import {
  dayAfter,
  dayStart,
  monthRange,
  monthsOf,
  rangeOf,
  roundMinutes,
  todayIn,
  weeksOf,
} from './portal-dates.ts';

type Tally = { n: number; minutes: number };
const tallyOf = (r: Tally | undefined) => ({ count: r?.n ?? 0, minutes: roundMinutes(r?.minutes ?? 0) });

/*
 * A clinic's treatment figures and monthly usage (issue 39 item 5). Every query runs in
 * withCustomerScope: row-level security (decision 090) shows it only the treatments stamped with the
 * clinic (decision 087: made while it held the machine, kept after the machine moves) and only the
 * machines and doctors it may name, so no `where customer_id` here decides what is seen. A machine it
 * no longer holds is not readable: it is named formerMachineLabel. Nothing of a patient is read.
 */
export function createFiguresService({ db, now }: { db: Db; now: () => Date }) {
  return {
    async figures(customerId: string, query: FiguresQuery, timeZone: string): Promise<Figures> {
      const { from, to } = rangeOf(query, timeZone, now());
      const inRange = sql`tr.treated_at >= ${dayStart(from, timeZone)} and tr.treated_at < ${dayAfter(to, timeZone)}`;
      const local = sql`(tr.treated_at at time zone ${timeZone})`;
      const tally = sql`count(*)::int as n, coalesce(sum(tr.treatment_duration), 0)::float8 as minutes`;
      const read = await withCustomerScope(db, customerId, async (tx) => {
        const q = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await tx.execute(query));
        return {
          machines: await q<Tally & { device_id: string; machine_number: string | null }>(sql`
            select tr.device_id, d.machine_number, ${tally}
            from treatment_records tr left join devices d on d.id = tr.device_id
            where ${inRange} group by tr.device_id, d.machine_number`),
          doctors: await q<Tally & { doctor_id: string | null; user_name: string | null }>(sql`
            select tr.doctor_id, doc.user_name, ${tally}
            from treatment_records tr left join doctors doc on doc.id = tr.doctor_id
            where ${inRange} group by tr.doctor_id, doc.user_name`),
          weeks: await q<Tally & { key: string }>(sql`
            select to_char(date_trunc('week', ${local}), 'YYYY-MM-DD') as key, ${tally}
            from treatment_records tr where ${inRange} group by 1`),
          months: await q<Tally & { key: string }>(sql`
            select to_char(${local}, 'YYYY-MM') as key, ${tally}
            from treatment_records tr where ${inRange} group by 1`),
        };
      });
      const weeks = new Map(read.weeks.map((r) => [r.key, r]));
      const months = new Map(read.months.map((r) => [r.key, r]));
      const total = read.months.reduce((sum, r) => ({ n: sum.n + r.n, minutes: sum.minutes + r.minutes }), {
        n: 0,
        minutes: 0,
      });
      const byCount = <T extends { count: number; label: string }>(a: T, b: T) =>
        b.count - a.count || a.label.localeCompare(b.label);
      return {
        from,
        to,
        timeZone,
        total: tallyOf(total),
        byMachine: read.machines
          .map((r) => ({
            deviceId: r.device_id,
            label: r.machine_number ?? formerMachineLabel(r.device_id),
            current: r.machine_number !== null,
            ...tallyOf(r),
          }))
          .sort(byCount),
        byDoctor: read.doctors
          .map((r) => ({
            doctorId: r.doctor_id,
            label: r.user_name ?? (r.doctor_id ? otherClinicDoctorLabel : noDoctorLabel),
            ...tallyOf(r),
          }))
          .sort(byCount),
        byWeek: weeksOf(from, to).map((week) => ({ week, ...tallyOf(weeks.get(week)) })),
        byMonth: monthsOf(from, to).map((month) => ({ month, ...tallyOf(months.get(month)) })),
      };
    },

    /**
     * One month per machine: every machine the clinic held at some time in the month (its periods,
     * readable under its policy) or that made a treatment of the clinic's in it, with its treatments,
     * minutes and the days on which it was used.
     */
    async usage(customerId: string, query: UsageQuery, timeZone: string): Promise<UsageReport> {
      const month = query.month ?? todayIn(timeZone, now()).slice(0, 7);
      const { from, to } = monthRange(month);
      const start = dayStart(from, timeZone);
      const end = dayAfter(to, timeZone);
      const inMonth = sql`tr.treated_at >= ${start} and tr.treated_at < ${end}`;
      const localDay = sql`(tr.treated_at at time zone ${timeZone})::date`;
      type Row = {
        device_id: string;
        machine_number: string | null;
        serial_number: string | null;
        n: number;
        minutes: number;
        days: number;
      };
      const { rows, days } = await withCustomerScope(db, customerId, async (tx) => ({
        rows: rowsOf<Row>(
          await tx.execute(sql`
            with held as (
              select device_id from machine_assignments
              where from_at < ${end} and (until_at is null or until_at > ${start})
              union select tr.device_id from treatment_records tr where ${inMonth}
            ), used as (
              select tr.device_id, count(*)::int as n, coalesce(sum(tr.treatment_duration), 0)::float8 as minutes,
                count(distinct ${localDay})::int as days
              from treatment_records tr where ${inMonth} group by tr.device_id
            )
            select held.device_id, d.machine_number, d.serial_number,
              coalesce(used.n, 0) as n, coalesce(used.minutes, 0) as minutes, coalesce(used.days, 0) as days
            from held left join used on used.device_id = held.device_id
              left join devices d on d.id = held.device_id`),
        ),
        days: rowsOf<{ days: number }>(
          await tx.execute(
            sql`select count(distinct ${localDay})::int as days from treatment_records tr where ${inMonth}`,
          ),
        )[0]!.days,
      }));
      const machines = rows
        .map((r) => ({
          deviceId: r.device_id,
          label: r.machine_number ?? formerMachineLabel(r.device_id),
          serialNumber: r.serial_number,
          current: r.machine_number !== null,
          treatments: r.n,
          minutes: roundMinutes(r.minutes),
          daysUsed: r.days,
        }))
        .sort((a, b) => Number(b.current) - Number(a.current) || a.label.localeCompare(b.label));
      return {
        month,
        timeZone,
        machines,
        total: {
          treatments: machines.reduce((s, r) => s + r.treatments, 0),
          minutes: roundMinutes(rows.reduce((s, r) => s + r.minutes, 0)),
          daysUsed: days,
        },
      };
    },
  };
}
export type FiguresService = ReturnType<typeof createFiguresService>;
