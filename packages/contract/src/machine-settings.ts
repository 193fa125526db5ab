import { z } from 'zod';
import { envelope } from './envelope.ts';
import { strictObject } from './fields.ts';
import { isIanaTimeZone } from './time-zones.ts';

/*
 * Settings of the machines' app (issue 37 item 3): a typed catalogue, with values at three levels:
 * the fleet's default, a group's and the machine's own; the nearest wins. The machine fetches its
 * effective settings with a version (the heartbeat names the version), applies them and reports the
 * version it applied; desired ≠ applied is drift. The maintenance window is set on its own card and
 * routes (maintenance-windows.ts): it is read on the server when handing over, not by the app.
 * licenceOfflineDays is the server's too (it sets the signed licence's `exp`); the app receives it
 * as the others, and fetches its licence again when it changes.
 */

export const logLevels = ['error', 'warn', 'info', 'debug'] as const;
export const appLanguages = ['en', 'de', 'fr', 'es', 'it', 'nl'] as const;
export const languageLabels: Record<(typeof appLanguages)[number], string> = {
  en: 'English',
  de: 'German',
  fr: 'French',
  es: 'Spanish',
  it: 'Italian',
  nl: 'Dutch',
};

/**
 * licenceOfflineDays's max is the most LICENCE_OFFLINE_DAYS can be: the server refuses a value above
 * its own LICENCE_OFFLINE_DAYS, because retired signing keys are published only that long.
 */
export const settingsLimits = {
  heartbeatSeconds: { min: 15, max: 600 },
  licenceOfflineDays: { min: 1, max: 90 },
} as const;

export const settingsMessages = {
  heartbeatSeconds: `heartbeatSeconds must be a whole number of seconds from ${settingsLimits.heartbeatSeconds.min} to ${settingsLimits.heartbeatSeconds.max}`,
  logLevel: `logLevel must be one of ${logLevels.join(', ')}`,
  language: `language must be one of ${appLanguages.join(', ')}`,
  timeZone: 'timeZone must be an IANA time zone, such as Europe/Amsterdam',
  licenceOfflineDays: `licenceOfflineDays must be a whole number of days from ${settingsLimits.licenceOfflineDays.min} to the server's maximum (LICENCE_OFFLINE_DAYS)`,
  /** The server's refusal of a value above its LICENCE_OFFLINE_DAYS. */
  licenceOfflineDaysAbove: (max: number) =>
    `licenceOfflineDays must be a whole number of days from ${settingsLimits.licenceOfflineDays.min} to ${max} (the server's LICENCE_OFFLINE_DAYS: retired signing keys are published only that long)`,
  noChange: 'Name at least one setting to change',
  saved: 'Settings saved',
  appliedTooNew: "version is newer than the machine's settings",
  appliedInvalid: 'version must be a whole number from 0',
} as const;

const heartbeatSeconds = z
  .number({ error: settingsMessages.heartbeatSeconds })
  .int(settingsMessages.heartbeatSeconds)
  .min(settingsLimits.heartbeatSeconds.min, settingsMessages.heartbeatSeconds)
  .max(settingsLimits.heartbeatSeconds.max, settingsMessages.heartbeatSeconds);
const timeZone = z
  .string({ error: settingsMessages.timeZone })
  .max(64, settingsMessages.timeZone)
  .refine(isIanaTimeZone, settingsMessages.timeZone);
/** A value an admin sets: whole days (the effective value may be the server's default, a fraction). */
const licenceOfflineDays = z
  .number({ error: settingsMessages.licenceOfflineDays })
  .int(settingsMessages.licenceOfflineDays)
  .min(settingsLimits.licenceOfflineDays.min, settingsMessages.licenceOfflineDays)
  .max(settingsLimits.licenceOfflineDays.max, settingsMessages.licenceOfflineDays);

/** One value per setting, as the app receives them. */
export const machineSettingsSchema = z.object({
  /** Seconds between heartbeats; the heartbeat's answer says the same as nextHeartbeatSeconds. */
  heartbeatSeconds,
  logLevel: z.enum(logLevels, { error: settingsMessages.logLevel }),
  /** The language of the app's screens. */
  language: z.enum(appLanguages, { error: settingsMessages.language }),
  /** The zone the app shows times in (its treatment records keep UTC). */
  timeZone,
  /**
   * Days the machine's signed licence stays valid without reaching the server (its `exp` after
   * `iat`); the server's LICENCE_OFFLINE_DAYS is the default and the most it can be.
   */
  licenceOfflineDays: z.number().positive(),
});
export type MachineSettings = z.infer<typeof machineSettingsSchema>;
export type SettingKey = keyof MachineSettings;
export const settingKeys = Object.keys(machineSettingsSchema.shape) as SettingKey[];

/** What the console shows for each setting, in the catalogue's order. */
export const settingLabels: Record<SettingKey, { label: string; hint: string }> = {
  heartbeatSeconds: {
    label: 'Heartbeat interval',
    hint: `Seconds between the machine's check-ins (${settingsLimits.heartbeatSeconds.min} to ${settingsLimits.heartbeatSeconds.max})`,
  },
  logLevel: { label: 'Log level', hint: 'How much the app writes to its log' },
  language: { label: 'Language', hint: "The language of the app's screens" },
  timeZone: { label: 'Time zone', hint: 'The zone the app shows times in, such as Europe/Berlin' },
  licenceOfflineDays: {
    label: 'Offline licence validity',
    hint: `Days the machine may treat without reaching the server, whole days from ${settingsLimits.licenceOfflineDays.min} to the server's maximum (LICENCE_OFFLINE_DAYS, 7 unless set)`,
  },
};

/**
 * The catalogue's defaults; the server's DEVICE_HEARTBEAT_SECONDS stands in for heartbeatSeconds,
 * and its LICENCE_OFFLINE_DAYS for licenceOfflineDays.
 */
export const catalogueDefaults: MachineSettings = {
  heartbeatSeconds: 300,
  logLevel: 'info',
  language: 'en',
  timeZone: 'UTC',
  licenceOfflineDays: 7,
};

/** A change at one level: a value sets it there, null removes it (the level above applies again). */
export const settingsChangeBodySchema = strictObject({
  heartbeatSeconds: heartbeatSeconds.nullable().optional(),
  logLevel: machineSettingsSchema.shape.logLevel.nullable().optional(),
  language: machineSettingsSchema.shape.language.nullable().optional(),
  timeZone: timeZone.nullable().optional(),
  licenceOfflineDays: licenceOfflineDays.nullable().optional(),
}).refine((b) => Object.keys(b).length > 0, { message: settingsMessages.noChange });
export type SettingsChangeBody = z.infer<typeof settingsChangeBodySchema>;
/** Each key's rule for a value an admin sets (the console's forms check a field with it). */
export const settingValueSchemas = {
  ...machineSettingsSchema.shape,
  licenceOfflineDays,
};

/** Values set at one level (the fleet's, a group's or a machine's own); absent keys are not set there. */
export const settingValuesSchema = machineSettingsSchema.partial();
export type SettingValues = z.infer<typeof settingValuesSchema>;

/** The values of the groups set on a machine, per key (the last group set on it wins). */
export type SettingsFromGroups = Partial<Record<SettingKey, { value: unknown; groupId: string }>>;

export const settingSources = ['default', 'fleet', 'group', 'machine'] as const;
export type SettingSource = (typeof settingSources)[number];

/** A machine's settings as the console shows them: each effective value and where it comes from. */
export const machineSettingsViewSchema = z.object({
  effective: machineSettingsSchema,
  sources: z.record(
    z.string(),
    z.object({
      source: z.enum(settingSources),
      /** The group it comes from, when the source is a group. */
      group: z.object({ _id: z.string(), name: z.string() }).nullable(),
    }),
  ),
  /** The machine's own values (what its overrides set). */
  own: settingValuesSchema,
  /** The version of the effective settings now; it grows whenever they change. */
  version: z.number().int(),
  /** The version the machine last reported applying, and when; null before its first report. */
  appliedVersion: z.number().int().nullable(),
  appliedAt: z.string().nullable(),
  /** Since when desired and applied differ; null when they do not (no drift). */
  driftSince: z.string().nullable(),
});
export type MachineSettingsView = z.infer<typeof machineSettingsViewSchema>;
export const machineSettingsViewResponseSchema = envelope(machineSettingsViewSchema);

export const levelSettingsResponseSchema = envelope(
  z.object({
    values: settingValuesSchema,
    /** How many machines' effective settings changed (and so their version). */
    machinesChanged: z.number().int(),
  }),
);

/** The fleet's values, and the defaults under them (the catalogue's, with the server's heartbeat). */
export const fleetSettingsResponseSchema = envelope(
  z.object({ values: settingValuesSchema, defaults: machineSettingsSchema }),
);

// ---------- the machine's side ----------

export const appSettingsSchema = z.object({ version: z.number().int(), settings: machineSettingsSchema });
export type AppSettings = z.infer<typeof appSettingsSchema>;
export const appSettingsResponseSchema = envelope(appSettingsSchema);
export const appSettingsAppliedBodySchema = strictObject({
  version: z
    .number({ error: settingsMessages.appliedInvalid })
    .int(settingsMessages.appliedInvalid)
    .min(0, settingsMessages.appliedInvalid)
    .max(2_147_483_647, settingsMessages.appliedInvalid),
});
export const appSettingsAppliedResponseSchema = envelope(
  z.object({ version: z.number().int(), appliedVersion: z.number().int() }),
);

/** The effective settings: the catalogue's defaults, then the fleet's, a group's and the machine's own. */
export function effectiveSettings(
  defaults: MachineSettings,
  fleet: SettingValues,
  fromGroups: SettingsFromGroups,
  own: SettingValues,
): { effective: MachineSettings; sources: Record<SettingKey, { source: SettingSource; groupId?: string }> } {
  const effective = { ...defaults } as Record<SettingKey, unknown>;
  const sources = {} as Record<SettingKey, { source: SettingSource; groupId?: string }>;
  for (const key of settingKeys) {
    const group = fromGroups[key];
    if (own[key] !== undefined) [effective[key], sources[key]] = [own[key], { source: 'machine' }];
    else if (group)
      [effective[key], sources[key]] = [group.value, { source: 'group', groupId: group.groupId }];
    else if (fleet[key] !== undefined) [effective[key], sources[key]] = [fleet[key], { source: 'fleet' }];
    else sources[key] = { source: 'default' };
  }
  return { effective: effective as MachineSettings, sources };
}

export const settingsPaths = {
  fleet: '/api/v1/admin/settings',
  machine: (id: string) => `/api/v1/admin/machine/${id}/settings`,
  group: (id: string) => `/api/v1/admin/groups/${id}/settings`,
  app: '/api/v1/app/settings',
  appApplied: '/api/v1/app/settings/applied',
} as const;
