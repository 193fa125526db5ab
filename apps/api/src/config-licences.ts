import { z } from 'zod';
import { licenceEnforcements, type LicenceEnforcement } from '@app/contract/licences';

/**
 * The environment variables of machines' licences (modules/licences, decision 068): how hard they
 * bite, how long grace and offline validity last, and when reminders go out.
 */
export const licencesEnv = {
  LICENCE_ENFORCEMENT: z
    .enum(licenceEnforcements, { error: `must be one of ${licenceEnforcements.join(', ')}` })
    .default('lapsed'),
  // Days a machine stays in grace after its paid-through date (or a failed renewal) before it lapses.
  LICENCE_GRACE_DAYS: z.coerce.number().int().min(0, 'must be at least 0').max(365).default(14),
  // How long a machine may run on its last licence without reaching the server.
  LICENCE_OFFLINE_DAYS: z.coerce.number().min(0.01, 'must be above 0').max(90).default(7),
  // What a one-time payment licenses, from the day it is paid.
  LICENCE_ONE_TIME_DAYS: z.coerce.number().int().min(1, 'must be at least 1').max(3_650).default(365),
  // Reminder mails this many days before a paid-through date: a comma-separated list.
  LICENCE_REMINDER_DAYS: z
    .string()
    .regex(/^\s*\d{1,3}(\s*,\s*\d{1,3})*\s*$/, 'must be whole numbers of days, comma-separated (e.g. 14,3)')
    .default('14,3'),
  // How often the licence sweep checks for licences the clock has changed; 0: never.
  LICENCE_SWEEP_SECONDS: z.coerce.number().int().min(0, 'must be at least 0').max(86_400).default(300),
};
type LicencesEnv = z.infer<z.ZodObject<typeof licencesEnv>>;

export type LicencesConfig = Readonly<{
  enforcement: LicenceEnforcement;
  graceDays: number;
  offlineDays: number;
  oneTimeDays: number;
  /** Days before the paid-through date, largest first, each once. */
  reminderDays: readonly number[];
  sweepSeconds: number;
}>;

export const licencesConfig = (e: LicencesEnv): LicencesConfig => ({
  enforcement: e.LICENCE_ENFORCEMENT,
  graceDays: e.LICENCE_GRACE_DAYS,
  offlineDays: e.LICENCE_OFFLINE_DAYS,
  oneTimeDays: e.LICENCE_ONE_TIME_DAYS,
  reminderDays: [...new Set(e.LICENCE_REMINDER_DAYS.split(',').map((d) => Number(d.trim())))]
    .filter((d) => d > 0)
    .sort((a, b) => b - a),
  sweepSeconds: e.LICENCE_SWEEP_SECONDS,
});
