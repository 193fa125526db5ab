import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import { getTimeZone } from './session-store.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

/** A `datetime-local` input's format, to the minute. */
const INPUT_FORMAT = 'YYYY-MM-DDTHH:mm';

/** Now in the admin's time zone, as a `datetime-local` input's value (the minute begun, so never ahead). */
export const nowForInput = (now: Date = new Date()) => dayjs(now).tz(getTimeZone()).format(INPUT_FORMAT);

/** A `datetime-local` value read in the admin's time zone, as an ISO 8601 instant; null when not a date. */
export function inputToIso(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return null;
  const parsed = dayjs.tz(value, getTimeZone());
  return parsed.isValid() ? parsed.toISOString() : null;
}
