import { z } from 'zod';

/**
 * The environment variables of device health alarms (modules/alarms, decision 049): how often the
 * rules run, each rule's threshold, the digest's hour, and the minimum supported app version.
 */
export const alarmsEnv = {
  // 0: never (the tests run the checks themselves); otherwise every N seconds and once at start.
  ALARM_CHECK_SECONDS: z.coerce.number().int().min(0, 'must be at least 0').max(86_400).default(60),
  // Hours a machine stays Offline (quiet past DEVICE_OFFLINE_MINUTES) before the alarm; fractions allowed.
  ALARM_OFFLINE_HOURS: z.coerce.number().min(0, 'must be at least 0').max(8_760).default(24),
  // More error logs than this from one machine within an hour raise an alarm.
  ALARM_ERROR_BURST: z.coerce.number().int().min(1, 'must be at least 1').max(1_000_000).default(50),
  ALARM_DIGEST_HOUR: z.coerce.number().int().min(0, 'must be 0 to 23').max(23, 'must be 0 to 23').default(7),
  // Machines reporting an app versionCode below this raise an alarm; unset: no minimum.
  MIN_SUPPORTED_APP_VERSION_CODE: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(2_100_000_000, 'must be at most 2100000000')
    .optional(),
};
type AlarmsEnv = z.infer<z.ZodObject<typeof alarmsEnv>>;

export type AlarmsConfig = Readonly<{
  /** How often the rules and the digest run (and once at start); 0: never. */
  checkSeconds: number;
  /** A machine Offline for longer than this raises an alarm. */
  offlineHours: number;
  /** More error logs than this from one machine within an hour raise an alarm. */
  errorBurst: number;
  /** The hour of the day (UTC) from which each day's digest goes out. */
  digestHourUtc: number;
  /** Read only through app-updates/minimum-supported-version.ts (staged rollouts will set it too). */
  minSupportedAppVersionCode: number | undefined;
}>;

export const alarmsConfig = (e: AlarmsEnv): AlarmsConfig => ({
  checkSeconds: e.ALARM_CHECK_SECONDS,
  offlineHours: e.ALARM_OFFLINE_HOURS,
  errorBurst: e.ALARM_ERROR_BURST,
  digestHourUtc: e.ALARM_DIGEST_HOUR,
  minSupportedAppVersionCode: e.MIN_SUPPORTED_APP_VERSION_CODE,
});
