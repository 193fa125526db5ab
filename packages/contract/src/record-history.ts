import { z } from 'zod';
import { envelope } from './envelope.ts';
import { pageQuery } from './fields.ts';
import { revealBodySchema } from './masking.ts';

/*
 * Ours (issue 38 item 1, decision 081): the change history of a regulated record, field by field,
 * with the old and the new value, who changed it (or the system), when, from which session and
 * request, and why when the change asked for a reason. Written by the database in the transaction
 * of the change; read newest first, a page at a time, on the record's page (its History section).
 */

/** The records that keep a history, as the audit trail names their kinds (RecordKind). */
export const historyKinds = [
  'device',
  'user',
  'role',
  'subscription',
  'app-update',
  'group',
  'fleet-settings',
  'doctor',
  'patient',
] as const;
export type HistoryKind = (typeof historyKinds)[number];

/** The module's own API paths (decision 067): each beside its record's own path. */
export const recordHistoryPaths = {
  device: (id: string) => `/api/v1/admin/machine/${id}/history`,
  user: (id: string) => `/api/v1/admin/users/${id}/history`,
  role: (id: string) => `/api/v1/admin/roles/${id}/history`,
  subscription: (id: string) => `/api/v1/admin/subscriptions/${id}/history`,
  appUpdate: (id: string) => `/api/v1/admin/system/updates/${id}/history`,
  group: (id: string) => `/api/v1/admin/groups/${id}/history`,
  fleetSettings: '/api/v1/admin/settings/history',
  doctor: (id: string) => `/api/v1/admin/doctor/${id}/history`,
  patient: (id: string) => `/api/v1/admin/patient/${id}/history`,
  /** The same page with the masked values shown, for a reason the audit trail keeps (decision 045). */
  doctorReveal: (id: string) => `/api/v1/admin/doctor/${id}/history/reveal`,
  patientReveal: (id: string) => `/api/v1/admin/patient/${id}/history/reveal`,
} as const;

/** The fields whose values are masked in a history as everywhere else (decision 045). */
export const historyMaskedFields: Partial<Record<HistoryKind, readonly string[]>> = {
  doctor: ['email', 'phonenumber', 'address'],
  patient: ['email', 'phone', 'address'],
};

export const recordHistoryMessages = {
  title: 'History',
  empty: 'No changes recorded yet.',
  loadFailed: 'The history could not be loaded.',
  retry: 'Try again',
  system: 'System',
  /** A secret (a password) changed: its values are never kept. */
  secretChanged: '[changed]',
  none: 'N/A',
  masked: 'Masked values: reveal them to see what changed.',
  added: 'Added',
  removed: 'Removed',
} as const;

/**
 * A stored value as JSON (text, number, true or false, a list, an object); null when the field had
 * none (before a record was created, after it was removed).
 */
const historyValue = z.unknown();

export const historyEntrySchema = z.object({
  _id: z.string(),
  at: z.string(),
  /** The field as the API names it; a setting as 'settings.<key>'. */
  field: z.string(),
  oldValue: historyValue,
  newValue: historyValue,
  /** When the value is an id (a user's role), the name it had when read. */
  oldLabel: z.string().nullable(),
  newLabel: z.string().nullable(),
  /** A secret changed; its values are never stored. */
  secret: z.boolean(),
  /** The values are masked for this reader (decision 045). */
  masked: z.boolean(),
  /** Who changed it; null: the system (a payment, a sweep, a machine). */
  actor: z.object({ userId: z.string(), email: z.string().nullable() }).nullable(),
  sessionId: z.string().nullable(),
  requestId: z.string().nullable(),
  reason: z.string().nullable(),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

export const recordHistorySchema = z.object({
  history: z.array(historyEntrySchema),
  totalPages: z.number().int(),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type RecordHistory = z.infer<typeof recordHistorySchema>;
export const recordHistoryResponseSchema = envelope(recordHistorySchema);

/** A reveal of a history page: the reason of any reveal (decision 045), and the page. */
export const historyRevealBodySchema = revealBodySchema.safeExtend(pageQuery.shape);
