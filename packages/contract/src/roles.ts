import { z } from 'zod';
import { exportColumnsQuery } from './export-columns.ts';
import { roleTypes } from './auth.ts';
import { envelope } from './envelope.ts';
import { requiredText, strictObject } from './fields.ts';
import { permissionListSchema, permissionNames } from './permissions.ts';

export { roleTypeLabels, roleTypes } from './auth.ts';

/** docs/product.md §5.8 "Role", plus the server's own answers (the original brief left them open: docs/product.md §11). */
export const roleMessages = {
  roleNameRequired: 'Role Name is required',
  typeRequired: 'Type is required',
  typeInvalid: 'Invalid type',
  nameTaken: 'A role with this name already exists',
  inUse: (count: number) =>
    `This role is assigned to ${count} user${count === 1 ? '' : 's'} and cannot be deleted. Move ${count === 1 ? 'that user' : 'those users'} to another role first.`,
  protectedType: "The first admin's role must stay a Web role",
  notFound: 'Role not found',
  invalidId: 'Invalid role id',
  created: 'Role created successfully',
  updated: 'Role updated successfully',
  deleted: 'Role deleted successfully',
  /** Ours: a role of type app never signs in to the console, so a permission on it would mean nothing. */
  permissionsOnAppRole: 'permissions: only a Web role carries permissions',
  /** Ours: someone must always be able to hand permissions out (the first admin, who cannot be deleted). */
  protectedPermissions: "The first admin's role must keep every permission",
  /** docs/product.md §2.8: the list's empty text. */
  empty: 'No Roles found.',
} as const;

/**
 * The spec's role {roleName, type}, plus the role's permissions (names from permissions.ts). Left
 * out, a new role has none and an updated one keeps its own; a role turned into an app role loses them.
 */
export const roleBodySchema = strictObject({
  roleName: requiredText(roleMessages.roleNameRequired, 100),
  type: z.enum(roleTypes, {
    error: (i) => (i.input == null || i.input === '' ? roleMessages.typeRequired : roleMessages.typeInvalid),
  }),
  permissions: permissionListSchema.optional(),
}).superRefine((body, ctx) => {
  if (body.type === 'app' && body.permissions?.length)
    ctx.addIssue({ code: 'custom', path: ['permissions'], message: roleMessages.permissionsOnAppRole });
});
export type RoleBodyInput = z.input<typeof roleBodySchema>;
export type RoleBody = z.output<typeof roleBodySchema>;

const optionalNumber = (name: string, max: number) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .min(1, `${name} must be at least 1`)
    .max(max, `${name} must be at most ${max}`)
    .optional();

/**
 * docs/product.md §7.3 sends page/limit in one place and currentPage/pageSize in another, and no parameters at
 * all to fill the role dropdown (then every role comes back on one page).
 */
export const roleListQuerySchema = strictObject({
  page: optionalNumber('page', 1_000_000),
  limit: optionalNumber('limit', 100),
  currentPage: optionalNumber('currentPage', 1_000_000),
  pageSize: optionalNumber('pageSize', 100),
  search: z.string().trim().max(100, 'search must be at most 100 characters').optional(),
});

/** The export's columns: the list's own (it shows the role's name). */
export const roleExportColumns = { roleName: 'Role Name' } as const;
/** Ours (issue 17): the roles list's search and the columns shown for its CSV export. */
export const roleExportQuerySchema = strictObject({
  search: roleListQuerySchema.shape.search,
  columns: exportColumnsQuery(roleExportColumns),
});
export type RoleExportQuery = z.output<typeof roleExportQuerySchema>;

export const roleSchema = z.object({
  _id: z.string(),
  roleId: z.number().int(),
  roleName: z.string(),
  type: z.enum(roleTypes),
  createTime: z.string().nullable(),
  /** Ours: what the role may do in the console, in catalogue order (none on an app role). */
  permissions: z.array(z.enum(permissionNames)),
});
export type Role = z.infer<typeof roleSchema>;

export const roleListSchema = z.object({
  roles: z.array(roleSchema),
  totalPages: z.number().int(),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type RoleList = z.infer<typeof roleListSchema>;

export const roleIdParamSchema = z.object({ id: z.uuid({ error: roleMessages.invalidId }) });
export const roleResponseSchema = envelope(roleSchema);
export const roleListResponseSchema = envelope(roleListSchema);
export const roleDeleteResponseSchema = envelope(z.null());
