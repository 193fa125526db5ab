import { z } from 'zod';

/** Health data is never kept for less than this, whatever a setting says (decision 086). */
export const healthMinimumYears = 5;
/** The audit trail covers at least a year: an annual audit always finds the year it looks at. */
const minLogRetentionDays = 365;

const countryYears = z.string().transform((text, ctx) => {
  const out: { country: string; years: number }[] = [];
  // An empty variable is an unset one (the defaults apply): 'none' is how to have no override.
  if (text.trim().toLowerCase() === 'none') return out;
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const match = /^([^=]+)=(\d{1,3})$/.exec(part);
    const years = match ? Number(match[2]) : NaN;
    if (!match || years < healthMinimumYears) {
      ctx.addIssue({
        code: 'custom',
        message: `"${part}": each must be Country=years, at least ${healthMinimumYears} years (health data's minimum)`,
      });
      return z.NEVER;
    }
    out.push({ country: match[1]!.trim(), years });
  }
  return out;
});

/**
 * The environment variables of retention (modules/retention, decision 086): how often the
 * retention run goes, how long health data is kept (with per-country overrides of the country of the
 * machine the record came from), and how long the audit trail is kept. The short-lived kinds keep
 * housekeeping's rules and settings (decision 072).
 */
export const retentionEnv = {
  // How often the retention run goes; 0: never.
  RETENTION_SECONDS: z.coerce.number().int().min(0, 'must be at least 0').max(604_800).default(86_400),
  // Years treatment records and patient data are kept after the treatment (or the patient's last one).
  HEALTH_RETENTION_YEARS: z.coerce
    .number()
    .int()
    .min(healthMinimumYears, `must be at least ${healthMinimumYears} (health data's minimum)`)
    .max(100)
    .default(10),
  // Per-country overrides, the machine's country as Country=years, comma separated; 'none': none.
  HEALTH_RETENTION_COUNTRIES: countryYears.default(() => [
    { country: 'Netherlands', years: 15 },
    { country: 'Poland', years: 20 },
  ]),
  // Days access and error logs and the change history are kept; 0: forever.
  LOG_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .max(36_500)
    .refine((days) => days === 0 || days >= minLogRetentionDays, {
      message: `must be 0 (kept forever) or at least ${minLogRetentionDays}`,
    })
    .default(2_192),
};
type RetentionEnv = z.infer<z.ZodObject<typeof retentionEnv>>;

export type RetentionConfig = Readonly<{
  everySeconds: number;
  healthYears: number;
  healthCountryYears: readonly { country: string; years: number }[];
  /** 0: forever. */
  logDays: number;
}>;

export const retentionConfig = (e: RetentionEnv): RetentionConfig => ({
  everySeconds: e.RETENTION_SECONDS,
  healthYears: e.HEALTH_RETENTION_YEARS,
  healthCountryYears: e.HEALTH_RETENTION_COUNTRIES,
  logDays: e.LOG_RETENTION_DAYS,
});
