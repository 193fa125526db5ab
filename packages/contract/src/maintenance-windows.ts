import { z } from 'zod';
import { envelope } from './envelope.ts';
import { strictObject } from './fields.ts';
import { isIanaTimeZone } from './time-zones.ts';

/*
 * Maintenance windows (issue 37 item 4): the local hours in which a machine may be interrupted. A
 * command that waits for the window (restart, re-enrol) and an app update marked to respect it reach
 * the machine only inside its window, and never while its heartbeat says a treatment is running. A
 * safety hold never waits: it is for safety, and the app lets a running treatment finish anyway.
 */

export const maintenanceWindowMessages = {
  startInvalid: 'start must be a time of day as HH:MM (00:00 to 23:59)',
  endInvalid: 'end must be a time of day as HH:MM (00:00 to 23:59)',
  sameStartEnd: 'end must differ from start',
  timeZoneInvalid: 'timeZone must be an IANA time zone, such as Europe/Amsterdam',
  saved: 'Maintenance window saved',
  cleared: 'Maintenance window removed',
} as const;

const timeOfDay = (message: string) =>
  z
    .string({ error: message })
    .max(5, message)
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, message);

/** Every day from `start` to `end`, the machine's local time; an `end` before `start` runs past midnight. */
export const maintenanceWindowSchema = strictObject({
  start: timeOfDay(maintenanceWindowMessages.startInvalid),
  end: timeOfDay(maintenanceWindowMessages.endInvalid),
  timeZone: z
    .string({ error: maintenanceWindowMessages.timeZoneInvalid })
    .max(64, maintenanceWindowMessages.timeZoneInvalid)
    .refine(isIanaTimeZone, maintenanceWindowMessages.timeZoneInvalid),
}).refine((w) => w.start !== w.end, { message: maintenanceWindowMessages.sameStartEnd, path: ['end'] });
export type MaintenanceWindow = z.infer<typeof maintenanceWindowSchema>;

/** The body of setting a window: null removes it. */
export const maintenanceWindowBodySchema = strictObject({
  window: maintenanceWindowSchema.nullable(),
});

/** A machine's window and where it comes from (its own, or the group it was set on). */
export const machineWindowSchema = z.object({
  window: maintenanceWindowSchema.nullable(),
  /** The group whose window this is; null when set on the machine itself (or none). */
  fromGroup: z.object({ _id: z.string(), name: z.string() }).nullable(),
  /** Inside the window now (always true without one). */
  openNow: z.boolean(),
  /** Since when the machine's heartbeat says a treatment is running; null when none is. */
  busySince: z.string().nullable(),
});
export type MachineWindow = z.infer<typeof machineWindowSchema>;
export const machineWindowResponseSchema = envelope(machineWindowSchema);
export const groupWindowResponseSchema = envelope(
  z.object({ window: maintenanceWindowSchema.nullable(), machineCount: z.number().int() }),
);

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The minute of the day at `at` in `timeZone` (0 to 1439). */
function localMinute(at: Date, timeZone: string): number {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formatters.set(timeZone, f);
  }
  const parts = f.formatToParts(at);
  const hour = Number(parts.find((p) => p.type === 'hour')?.value);
  const minute = Number(parts.find((p) => p.type === 'minute')?.value);
  return hour * 60 + minute;
}

/** Is `at` inside the window? No window: always. End is exclusive; an overnight window wraps. */
export function insideWindow(window: MaintenanceWindow | null | undefined, at: Date): boolean {
  if (!window) return true;
  const now = localMinute(at, window.timeZone);
  const start = minutesOf(window.start);
  const end = minutesOf(window.end);
  return start < end ? now >= start && now < end : now >= start || now < end;
}

/** What the console says of a queued command the window holds (Command.waiting). */
export const commandWaitingLabels = {
  window: 'Waiting for window',
  treatment: 'Waiting for the treatment to end',
} as const;

export const maintenanceWindowPaths = {
  machine: (id: string) => `/api/v1/admin/machine/${id}/maintenance-window`,
  group: (id: string) => `/api/v1/admin/groups/${id}/maintenance-window`,
} as const;
