import { z } from 'zod';
import { envelope } from './envelope.ts';
import { strictObject } from './fields.ts';

/**
 * Issue 17: an admin's list preferences and saved views, kept on the server so they follow the
 * admin to another browser and survive sign-out (decision 053).
 */
export const listKeys = [
  'devices',
  'device-users',
  'treatments',
  'logs',
  'roles',
  'users',
  'subscriptions',
  'app-updates',
  'customers',
] as const;
export type ListKey = (typeof listKeys)[number];

/** The console's colour mode (decision 054): 'system' follows the browser's prefers-color-scheme. */
export const colorModes = ['system', 'light', 'dark'] as const;
export type ColorMode = (typeof colorModes)[number];
export const defaultColorMode: ColorMode = 'system';

export const preferenceMessages = {
  saved: 'Preferences saved',
  viewSaved: 'View saved',
  viewDeleted: 'View deleted',
  viewNotFound: 'View not found',
  viewNotYours: 'Only the admin who saved a view can delete it',
  viewNameTaken: 'You already have a view with this name',
  viewNameRequired: 'Name is required',
  invalidList: `list must be one of ${listKeys.join(', ')}`,
  invalidColorMode: `colorMode must be one of ${colorModes.join(', ')}`,
} as const;

const listKey = z.enum(listKeys, { error: preferenceMessages.invalidList });
const columnKey = z.string().trim().min(1).max(64, 'a column key must be at most 64 characters');

/** One list's preferences; a field left null takes the list's own default. */
export const listPreferencesSchema = strictObject({
  /** The columns shown, in their order (mandatory columns are always shown). */
  columns: z.array(columnKey).max(50, 'columns must list at most 50 keys').nullable(),
  pageSize: z
    .number({ error: 'pageSize must be a number' })
    .int('pageSize must be a whole number')
    .min(1, 'pageSize must be at least 1')
    .max(100, 'pageSize must be at most 100')
    .nullable(),
  sort: strictObject({
    key: columnKey,
    direction: z.enum(['asc', 'desc'], { error: 'direction must be asc or desc' }),
  }).nullable(),
});
export type ListPreferences = z.infer<typeof listPreferencesSchema>;

export const listParamSchema = z.object({ list: listKey });

export const colorModeSchema = z.enum(colorModes, { error: preferenceMessages.invalidColorMode });
export const colorModeBodySchema = strictObject({ colorMode: colorModeSchema });
export const colorModeResponseSchema = envelope(colorModeBodySchema);

/**
 * Every list's preferences of the signed-in admin, by list (lists never set are absent), and the
 * console's colour mode.
 */
export const preferencesSchema = z.object({
  lists: z.record(z.string(), listPreferencesSchema),
  colorMode: colorModeSchema,
});
export type Preferences = z.infer<typeof preferencesSchema>;
export const preferencesResponseSchema = envelope(preferencesSchema);
export const listPreferencesResponseSchema = envelope(listPreferencesSchema);

/** A named view of a list: its URL query (filters, search, sort, page size, view), private or shared. */
export const savedViewBodySchema = strictObject({
  list: listKey,
  name: z
    .string({ error: preferenceMessages.viewNameRequired })
    .trim()
    .min(1, preferenceMessages.viewNameRequired)
    .max(60, 'Name must be at most 60 characters'),
  /** The list's URL query string without the leading '?', e.g. 'search=berlin&online=offline'. */
  query: z.string().max(1000, 'query must be at most 1000 characters'),
  shared: z.boolean({ error: 'shared must be true or false' }),
});
export type SavedViewBody = z.infer<typeof savedViewBodySchema>;

export const savedViewSchema = z.object({
  _id: z.string(),
  list: z.string(),
  name: z.string(),
  query: z.string(),
  shared: z.boolean(),
  /** The admin who saved it (their user name), and whether that is the signed-in admin. */
  ownerName: z.string(),
  mine: z.boolean(),
  createdAt: z.string(),
});
export type SavedView = z.infer<typeof savedViewSchema>;

export const savedViewListQuerySchema = strictObject({ list: listKey });
export const savedViewIdParamSchema = z.object({ id: z.uuid({ error: preferenceMessages.viewNotFound }) });
export const savedViewResponseSchema = envelope(savedViewSchema);
export const savedViewListResponseSchema = envelope(z.object({ views: z.array(savedViewSchema) }));
export const savedViewDeleteResponseSchema = envelope(z.object({ _id: z.string() }));
