import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import { getTimeZone } from './session-store.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

/** docs/product.md §1 display conventions. */
export const NA = 'N/A';
export const DATE_FORMAT = 'DD-MM-YYYY';
export const DATE_TIME_FORMAT = 'DD/MM/YYYY HH:mm:ss';

export type Displayable = string | number | boolean | null | undefined;

/** An empty, null or missing value shows N/A. */
export function orNA(value: Displayable): string {
  if (value === null || value === undefined) return NA;
  if (typeof value === 'string') return value.trim() === '' ? NA : value;
  if (typeof value === 'number' && Number.isNaN(value)) return NA;
  return String(value);
}

export type DateInput = string | number | Date | null | undefined;

function inZone(value: DateInput, timeZone?: string) {
  if (value === null || value === undefined || value === '') return null;
  const parsed = dayjs(value);
  if (!parsed.isValid()) return null;
  try {
    return parsed.tz(timeZone ?? getTimeZone());
  } catch {
    // An unknown zone name in old stored sessions: show the browser's local time.
    return parsed;
  }
}

/** A date in the admin's time zone, DD-MM-YYYY unless a format is given; N/A when missing or invalid. */
export function formatDate(value: DateInput, format: string = DATE_FORMAT, timeZone?: string) {
  return inZone(value, timeZone)?.format(format) ?? NA;
}

/** A date-time in the admin's time zone, DD/MM/YYYY HH:mm:ss unless a format is given; N/A when missing or invalid. */
export function formatDateTime(value: DateInput, format: string = DATE_TIME_FORMAT, timeZone?: string) {
  return inZone(value, timeZone)?.format(format) ?? NA;
}

/** A file's size for people: "512 bytes", "23 kB", "4.2 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024).toLocaleString('en-US')} kB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
