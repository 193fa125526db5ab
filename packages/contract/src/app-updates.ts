import { z } from 'zod';
import { exportColumnsQuery } from './export-columns.ts';
import { envelope } from './envelope.ts';
import { rolloutFields, rolloutPercentSchema, rolloutProgressSchema } from './app-update-rollouts.ts';
import { signatureSchema } from './signatures.ts';
import { pageQuery, requiredText, strictObject } from './fields.ts';

/** docs/product.md §5.6 "App update" (required fields, update type, apk file) and our server-side texts. */
export const appUpdateMessages = {
  appNameRequired: 'App name is required',
  versionCodeRequired: 'Version code is required',
  versionNameRequired: 'Version name is required',
  updateDescRequired: 'Update description is required',
  remarkRequired: 'Remark is required',
  updateTypeRequired: 'Update type is required',
  updateTypeInvalid: 'Invalid update type',
  fileRequired: 'File is required',
  /** The form's check of the chosen file's name. */
  apkExtension: 'Only .apk files are allowed',
  /** The server's check of the file's content (a ZIP holding AndroidManifest.xml). */
  apkContent: 'Only APK files are allowed',
  // Ours: the spec names no texts for these.
  versionCodeInteger: 'Version code must be a whole number between 1 and 2100000000',
  appNameFormat: 'App name may use letters, digits, spaces and . _ - only',
  versionCodeTaken: 'This version code already exists for this app',
  tooLarge: 'The APK file is too large',
  /** A ZIP whose declared numbers exceed the server's limits (zip bombs), before anything is unpacked. */
  tooManyEntries: 'The APK file lists too many entries',
  unpacksTooLarge: 'The APK file unpacks to more than the allowed size',
  /** A ZIP whose records contradict each other (overlapping entries, wrong counts or offsets). */
  malformed: 'The APK file is damaged or malformed',
  /** An entry named like `../x`, `/x`, `C:x` or with a backslash: it could escape a folder when unpacked. */
  unsafeEntryName: 'The APK file holds an unsafe entry name',
  /**
   * The APK's own AndroidManifest.xml is the truth for the package and the version (issue 16): no
   * readable manifest, another app's package, a version not above the newest, a form that disagrees.
   */
  manifestUnreadable: 'The APK file has no readable AndroidManifest.xml',
  packageMismatch: (fromFile: string, appPackage: string) =>
    `Package ${fromFile} of the APK file is not this app's package (${appPackage})`,
  versionCodeNotAbove: (newest: number) =>
    `Version code must be above ${newest}, the newest release of this app`,
  versionCodeFileMismatch: (fromFile: number) =>
    `Version code does not match the APK file, which declares ${fromFile}`,
  versionNameFileMismatch: (fromFile: string) =>
    `Version name does not match the APK file, which declares ${fromFile}`,
  notFound: 'App update not found',
  invalidId: 'Invalid app update id',
  noneForApp: 'No update found for this app',
  added: 'App update added successfully',
  /** docs/product.md §2.8: the list's empty text. */
  empty: 'No System Update found.',
  /** docs/product.md §8: default empty-result message. */
  noneFound: 'No system found',
} as const;

/** docs/product.md §3.9 and §9: 1 Flexible, 2 Force. */
export const updateTypes = [1, 2] as const;
export type UpdateType = (typeof updateTypes)[number];
export const updateTypeLabels: Record<UpdateType, string> = { 1: 'Flexible', 2: 'Force' };
export const updateTypeLabel = (type: number | null | undefined): string =>
  (type != null && updateTypeLabels[type as UpdateType]) || 'N/A';

/** The largest versionCode Google Play accepts. */
export const maxVersionCode = 2_100_000_000;

// Multipart fields arrive as text; the select sends '1' or '2'.
export const updateTypeSchema = z.preprocess(
  (v) =>
    typeof v === 'string' && /^\s*[12]\s*$/.test(v)
      ? Number(v)
      : typeof v === 'string' && v.trim() === ''
        ? undefined
        : v,
  z.literal(updateTypes, {
    error: (i) =>
      i.input == null ? appUpdateMessages.updateTypeRequired : appUpdateMessages.updateTypeInvalid,
  }),
);

export const versionCodeSchema = z.preprocess(
  (v) => {
    if (typeof v !== 'string') return v;
    const t = v.trim();
    if (t === '') return undefined;
    return /^\d{1,10}$/.test(t) ? Number(t) : v;
  },
  z
    .number({
      error: (i) =>
        i.input == null ? appUpdateMessages.versionCodeRequired : appUpdateMessages.versionCodeInteger,
    })
    .int(appUpdateMessages.versionCodeInteger)
    .min(1, appUpdateMessages.versionCodeInteger)
    .max(maxVersionCode, appUpdateMessages.versionCodeInteger),
);

const appNameSchema = requiredText(appUpdateMessages.appNameRequired, 120).regex(
  /^[\p{L}\p{N} ._-]+$/u,
  appUpdateMessages.appNameFormat,
);

/** The text fields of the Add App Update form and of the multipart POST (server and form share them). */
export const appUpdateFieldsSchema = strictObject({
  appName: appNameSchema,
  versionCode: versionCodeSchema,
  versionName: requiredText(appUpdateMessages.versionNameRequired, 64),
  remark: requiredText(appUpdateMessages.remarkRequired, 500),
  updateDesc: requiredText(appUpdateMessages.updateDescRequired, 2000),
  updateType: updateTypeSchema,
  /** The first stage of its staged rollout (decision 051); without it the release goes to every machine. */
  // The console's select sends '' for "every machine".
  rolloutPercent: z.preprocess((v) => (v === '' ? undefined : v), rolloutPercentSchema.optional()),
  /**
   * Ours (issue 37): offered to a machine only inside its maintenance window and while no treatment
   * runs. A multipart field is text: 'true' or 'false'.
   */
  respectsWindow: z
    .preprocess(
      (v) => (v === 'true' ? true : v === 'false' || v === '' ? false : v),
      z.boolean({ error: 'respectsWindow must be true or false' }),
    )
    .optional(),
});
export type AppUpdateFields = z.output<typeof appUpdateFieldsSchema>;
/** The fields every upload carries: with all of them in hand the server checks before the file arrives. */
export const appUpdateFieldKeys = (
  Object.keys(appUpdateFieldsSchema.shape) as (keyof AppUpdateFields)[]
).filter((key) => key !== 'rolloutPercent' && key !== 'respectsWindow');

/** What a browser File or a server-side part has in common. */
export type FileLike = { name: string; size: number };
const isFileLike = (v: unknown): v is FileLike =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as FileLike).name === 'string' &&
  typeof (v as FileLike).size === 'number';

/** A browser file input's FileList (what a registered `<input type="file">` holds): its first file. */
const firstOfFileList = (v: unknown) =>
  typeof v === 'object' &&
  v !== null &&
  !isFileLike(v) &&
  typeof (v as { length?: unknown }).length === 'number'
    ? ((v as ArrayLike<unknown>)[0] ?? undefined)
    : v;

export const apkFileSchema = z.preprocess(
  firstOfFileList,
  z
    .custom<FileLike>((v) => isFileLike(v), { error: appUpdateMessages.fileRequired })
    .refine((f) => /\.apk$/i.test(f.name), { error: appUpdateMessages.apkExtension }),
);

/** The whole Add App Update form: the fields plus the chosen file. */
export const appUpdateFormSchema = appUpdateFieldsSchema.extend({ apk: apkFileSchema });
export type AppUpdateFormInput = z.input<typeof appUpdateFormSchema>;
export type AppUpdateForm = z.output<typeof appUpdateFormSchema>;

export const appUpdateSchema = z.object({
  _id: z.string(),
  /** docs/product.md §3.9 names it `id`; `_id` like every other entity. Same value. */
  id: z.string(),
  appName: z.string(),
  versionCode: z.number().int(),
  versionName: z.string(),
  remark: z.string(),
  updateDesc: z.string(),
  updateType: z.number().int(),
  /** Public, unguessable download address of the APK (no token needed: the mobile app fetches it). */
  apkUrl: z.string(),
  fileName: z.string(),
  apkSize: z.number().int(),
  apkSha256: z.string(),
  /** The package the APK's manifest declares (null: stored before manifests were read). */
  packageName: z.string().nullable(),
  createdAt: z.string(),
  ...rolloutFields,
  /** Reaches a machine only inside its maintenance window and while no treatment runs (issue 37). */
  respectsWindow: z.boolean(),
});
export type AppUpdate = z.infer<typeof appUpdateSchema>;

/** A row of the App Update list: the release and how many machines last reported running its versionCode. */
export const appUpdateListItemSchema = appUpdateSchema.extend({
  deviceCount: z.number().int(),
  /** Its staged rollout's progress (decision 051). */
  progress: rolloutProgressSchema,
  /** The second admins' signed approvals of its rollout, oldest first (decision 083). */
  signatures: z.array(signatureSchema),
});
export type AppUpdateListItem = z.infer<typeof appUpdateListItemSchema>;

export const appUpdateListQuerySchema = pageQuery;
/** The export's columns, keyed as the list's, in its order (the APK as its download address). */
export const appUpdateExportColumns = {
  appName: 'App Name',
  versionCode: 'Version Code',
  versionName: 'Version Name',
  updateType: 'Update Type',
  remark: 'Remark',
  deviceCount: 'Machines Running',
  rolloutPercent: 'Rollout',
  createdAt: 'Date',
  apkUrl: 'APK',
} as const;
/** Ours (issue 17): App Update as a CSV file; the list has no filter, only the columns shown. */
export const appUpdateExportQuerySchema = strictObject({
  columns: exportColumnsQuery(appUpdateExportColumns),
});
export type AppUpdateExportQuery = z.output<typeof appUpdateExportQuerySchema>;

export const appUpdateListSchema = z.object({
  allSystems: z.array(appUpdateListItemSchema),
  totalPages: z.number().int(),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type AppUpdateList = z.infer<typeof appUpdateListSchema>;

export const appUpdateListResponseSchema = envelope(appUpdateListSchema);
export const appUpdateResponseSchema = envelope(appUpdateSchema);

export const appUpdateIdParamSchema = z.object({ id: z.uuid({ error: appUpdateMessages.invalidId }) });

/** GET app/updates/latest (public, for the mobile app). */
export const latestUpdateQuerySchema = strictObject({
  appName: appNameSchema,
  /** The version the device runs; when given the answer says whether to update and how. */
  versionCode: versionCodeSchema.optional(),
});

export const latestUpdateSchema = appUpdateSchema.extend({
  /** Null when the caller sent no versionCode. */
  updateAvailable: z.boolean().nullable(),
  /**
   * True when the device must update now: some version newer than the caller's is a Force update
   * (a Flexible release on top of a skipped Force one still forces). Without versionCode: the
   * newest release's own type.
   */
  forceUpdate: z.boolean(),
  /**
   * True when the caller's version was withdrawn and this answer is the earlier release to go back
   * to (decision 051); updateAvailable and forceUpdate are then true.
   */
  rollback: z.boolean(),
  /**
   * Ours (issue 37): the release respects maintenance windows and this machine must wait, its
   * window being closed ('window') or a treatment running ('treatment'): updateAvailable and
   * forceUpdate are then false; ask again later. Null otherwise (a rollback never waits).
   */
  waiting: z.enum(['window', 'treatment']).nullable(),
});
export type LatestUpdate = z.infer<typeof latestUpdateSchema>;
export const latestUpdateResponseSchema = envelope(latestUpdateSchema);
