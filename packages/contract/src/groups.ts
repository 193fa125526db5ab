import { z } from 'zod';
import { deviceBulkFiltersSchema, selection } from './bulk-actions.ts';
import { idParamSchema } from './devices.ts';
import { envelope } from './envelope.ts';
import { maintenanceWindowSchema } from './maintenance-windows.ts';
import { pageQuery, requiredText, strictObject } from './fields.ts';

/*
 * Machine groups (issue 37 item 1, decision 077): a static group holds the machines picked for it; a
 * dynamic group is a saved Device Management filter, re-evaluated whenever it is used, so a machine
 * that starts matching is in it from then on. Commands go to a group; settings and rollouts will.
 */

export const groupKinds = ['static', 'dynamic'] as const;
export type GroupKind = (typeof groupKinds)[number];

export const groupMessages = {
  notFound: 'Group not found',
  invalidId: 'Group id is invalid',
  nameRequired: 'Name is required',
  nameTaken: 'A group with this name already exists',
  kindInvalid: `kind must be one of ${groupKinds.join(', ')}`,
  filterRequired: 'filter is required for a dynamic group',
  filterNotStatic: 'A static group has no filter: add machines to it instead',
  notStatic:
    'Machines are added to a static group only: a dynamic group takes the machines its filter matches',
  created: 'Group created',
  updated: 'Group updated',
  deleted: 'Group deleted',
  membersAdded: (n: number) => `${n} ${n === 1 ? 'machine' : 'machines'} added`,
  membersRemoved: (n: number) => `${n} ${n === 1 ? 'machine' : 'machines'} removed`,
} as const;

const name = requiredText(groupMessages.nameRequired, 80);

export const groupSchema = z.object({
  _id: z.string(),
  name: z.string(),
  kind: z.enum(groupKinds),
  /** A dynamic group's Device Management filters; null for a static group. */
  filter: z.record(z.string(), z.unknown()).nullable(),
  /** The window set on the group (written on its machines when set: maintenance-windows.ts). */
  maintenanceWindow: maintenanceWindowSchema.nullable(),
  /** The machines in it now (a dynamic group's, counted on this request). */
  machineCount: z.number().int(),
  createdAt: z.string(),
  createdBy: z.string(),
});
export type Group = z.infer<typeof groupSchema>;

export const createGroupBodySchema = strictObject({
  name,
  kind: z.enum(groupKinds, { error: groupMessages.kindInvalid }),
  filter: deviceBulkFiltersSchema.optional(),
}).superRefine((body, ctx) => {
  if (body.kind === 'dynamic' && !body.filter)
    ctx.addIssue({ code: 'custom', path: ['filter'], message: groupMessages.filterRequired });
  if (body.kind === 'static' && body.filter)
    ctx.addIssue({ code: 'custom', path: ['filter'], message: groupMessages.filterNotStatic });
});
export type CreateGroupBody = z.output<typeof createGroupBodySchema>;

/** A new name, and for a dynamic group a new filter. */
export const updateGroupBodySchema = strictObject({ name, filter: deviceBulkFiltersSchema.optional() });
export type UpdateGroupBody = z.output<typeof updateGroupBodySchema>;

/** The machines picked on Device Management (`ids`), or every machine its filters match (`allMatching`). */
export const groupMembersBodySchema = selection(deviceBulkFiltersSchema, {});
export type GroupMembersBody = z.output<typeof groupMembersBodySchema>;

export const groupListQuerySchema = pageQuery.extend({
  search: z.string().trim().max(100, 'search must be at most 100 characters').optional(),
});
export const groupListSchema = z.object({
  groups: z.array(groupSchema),
  total: z.number().int(),
  totalPages: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type GroupList = z.infer<typeof groupListSchema>;

export const groupIdParamSchema = idParamSchema(groupMessages.invalidId);
export const groupResponseSchema = envelope(groupSchema);
export const groupListResponseSchema = envelope(groupListSchema);
export const groupMembersResponseSchema = envelope(
  z.object({ changed: z.number().int(), machineCount: z.number().int() }),
);

export const groupPaths = {
  groups: '/api/v1/admin/groups',
  group: (id: string) => `/api/v1/admin/groups/${id}`,
  members: (id: string) => `/api/v1/admin/groups/${id}/members`,
  removeMembers: (id: string) => `/api/v1/admin/groups/${id}/members/remove`,
} as const;
