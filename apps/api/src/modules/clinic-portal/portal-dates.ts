import { sql, type SQL } from 'drizzle-orm';
import { BadRequestError } from '#api/lib/errors.ts';
import { clinicPortalMessages as m, figuresMaxDays } from '@app/contract/clinic-portal-texts';

/*
 * The portal's days, weeks and months are the clinic user's own (the request's X-Timezone, checked by
 * the auth hook), so a treatment at 23:30 in Sydney counts on that Sydney day. Calendar arithmetic is
 * done on plain days (UTC dates of the day strings); the database turns a day into its instant.
 */

const dayMs = 86_400_000;
const fieldError = (path: string, message: string) =>
  new BadRequestError(message, { errors: [{ path, message }] });

/** Today in `timeZone`, as YYYY-MM-DD. */
export function todayIn(timeZone: string, now: Date): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

const asDate = (day: string) => new Date(`${day}T00:00:00Z`);
const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/** The range asked for, or the last twelve months (from the first of the month eleven months back). */
export function rangeOf(query: { from?: string; to?: string }, timeZone: string, now: Date) {
  const to = query.to ?? todayIn(timeZone, now);
  let from = query.from;
  if (!from) {
    const start = asDate(to);
    start.setUTCDate(1);
    start.setUTCMonth(start.getUTCMonth() - 11);
    from = dayOf(start);
  }
  const span = (asDate(to).getTime() - asDate(from).getTime()) / dayMs;
  if (span < 0) throw fieldError('to', m.toBeforeFrom);
  if (span + 1 > figuresMaxDays) throw fieldError('to', m.rangeTooLong);
  return { from, to };
}

/** The instant a day of `timeZone` begins (the day after `to` ends the range: a half-open range). */
export const dayStart = (day: string, timeZone: string): SQL =>
  sql`((${day}::date)::timestamp at time zone ${timeZone})`;
export const dayAfter = (day: string, timeZone: string): SQL =>
  sql`((${day}::date + 1)::timestamp at time zone ${timeZone})`;

/** Every Monday from the week of `from` to the week of `to`. */
export function weeksOf(from: string, to: string): string[] {
  const d = asDate(from);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  const out: string[] = [];
  for (const end = asDate(to); d <= end; d.setUTCDate(d.getUTCDate() + 7)) out.push(dayOf(d));
  return out;
}

/** Every month (YYYY-MM) from that of `from` to that of `to`. */
export function monthsOf(from: string, to: string): string[] {
  const d = asDate(`${from.slice(0, 7)}-01`);
  const out: string[] = [];
  for (const last = to.slice(0, 7); dayOf(d).slice(0, 7) <= last; d.setUTCMonth(d.getUTCMonth() + 1))
    out.push(dayOf(d).slice(0, 7));
  return out;
}

/** A month's first day and last day. */
export function monthRange(month: string): { from: string; to: string } {
  const end = asDate(`${month}-01`);
  end.setUTCMonth(end.getUTCMonth() + 1);
  end.setUTCDate(0);
  return { from: `${month}-01`, to: dayOf(end) };
}

/** Minutes rounded to one decimal, as the pages and files show them. */
export const roundMinutes = (minutes: number) => Math.round(minutes * 10) / 10;
