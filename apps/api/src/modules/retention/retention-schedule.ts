import type { RetentionScheduleEntry, RetentionSchedule } from '@app/contract/retention';
import { retentionRecordTypeLabels, type RetentionRecordType } from '@app/contract/retention-texts';
import { healthMinimumYears, type RetentionConfig } from '#api/config-retention.ts';
import type { HousekeepingConfig } from '#api/config-housekeeping.ts';
import { housekeepingPolicy } from '../housekeeping/housekeeping-service.ts';

const dayMs = 86_400_000;

type Settings = {
  retention: RetentionConfig;
  housekeeping: Pick<HousekeepingConfig, 'mailRetentionDays' | 'paymentEventRetentionDays'>;
};

/** `years` calendar years before `at` (a leap day falls back to the 28th of February). */
export function yearsBefore(at: Date, years: number): Date {
  const out = new Date(at);
  out.setUTCFullYear(out.getUTCFullYear() - years);
  return out;
}

/** The health data's cut-off times at `at`: the default, and one per country (lower-cased). */
export function healthCutoffs(at: Date, config: RetentionConfig) {
  return {
    fallback: yearsBefore(at, config.healthYears),
    byCountry: new Map(
      config.healthCountryYears.map(({ country, years }) => [country.toLowerCase(), yearsBefore(at, years)]),
    ),
  };
}

/** The log's cut-off at `at`, or null when logs are kept forever. */
export const logCutoff = (at: Date, config: RetentionConfig): Date | null =>
  config.logDays > 0 ? new Date(at.getTime() - config.logDays * dayMs) : null;

const days = (n: number | null) => ({ days: n, years: null });

/**
 * The schedule as the console shows it (decision 086): every record type, its period and from when
 * it counts, what happens after, the per-country overrides of health data, and the setting behind it.
 * The short-lived kinds are housekeeping's rules (decision 072), described, not restated.
 */
export function retentionSchedule({ retention, housekeeping }: Settings): RetentionSchedule {
  const grace = housekeepingPolicy.endedGraceMs / dayMs;
  const entry = (
    recordType: RetentionRecordType,
    rest: Omit<RetentionScheduleEntry, 'recordType' | 'label' | 'health' | 'action' | 'countryOverrides'> &
      Partial<Pick<RetentionScheduleEntry, 'health' | 'countryOverrides' | 'action'>>,
  ): RetentionScheduleEntry => ({
    recordType,
    label: retentionRecordTypeLabels[recordType],
    health: false,
    action: 'delete',
    countryOverrides: [],
    ...rest,
  });
  const health = {
    health: true,
    period: { days: null, years: retention.healthYears },
    countryOverrides: retention.healthCountryYears.map((o) => ({ ...o })),
    setting: 'HEALTH_RETENTION_YEARS, HEALTH_RETENTION_COUNTRIES',
  };
  const logs = retention.logDays > 0 ? retention.logDays : null;
  return {
    healthMinimumYears,
    everySeconds: retention.everySeconds,
    entries: [
      entry('treatmentRecords', {
        ...health,
        measuredFrom: 'the treatment (its start), in the machine’s country',
      }),
      entry('patientData', {
        ...health,
        measuredFrom:
          'the patient’s record, once none of their treatments is left; their change history goes with it',
      }),
      entry('logs', {
        period: days(logs),
        measuredFrom: 'the row; the hash chain’s start moves past the removed rows',
        setting: 'LOG_RETENTION_DAYS',
      }),
      entry('auditTrail', {
        period: days(logs),
        measuredFrom: 'the change (follows the access logs); a patient’s history goes with the patient',
        setting: 'LOG_RETENTION_DAYS',
      }),
      entry('mail', {
        period: days(housekeeping.mailRetentionDays || null),
        measuredFrom: 'sending (or giving up); a mail still being tried stays',
        setting: 'MAIL_RETENTION_DAYS',
      }),
      entry('sessions', {
        period: days(grace),
        measuredFrom: `the session’s end (console sessions also ${housekeepingPolicy.consoleSessionKeepMs / dayMs} days after sign-in)`,
        setting: null,
      }),
      entry('enrolmentCodes', { period: days(grace), measuredFrom: 'the code’s expiry', setting: null }),
      entry('passwordResets', { period: days(grace), measuredFrom: 'the reset’s expiry', setting: null }),
      entry('paymentEvents', {
        period: days(housekeeping.paymentEventRetentionDays || null),
        measuredFrom: 'processing',
        setting: 'PAYMENT_EVENT_RETENTION_DAYS',
      }),
    ],
  };
}
