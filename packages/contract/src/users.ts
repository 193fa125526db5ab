import { z } from 'zod';
import { exportColumnsQuery } from './export-columns.ts';
import { roleTypes } from './auth.ts';
import { listFilters, selection } from './bulk-actions.ts';
import { envelope } from './envelope.ts';
import { pageQuery, requiredText, strictObject } from './fields.ts';

/** docs/product.md §5.9 "User", plus the server's own answers (the original brief left them open: docs/product.md §11). */
export const userMessages = {
  firstNameRequired: 'First name is required',
  lastNameRequired: 'Last name is required',
  roleRequired: 'Role is required',
  userNameRequired: 'User name is required',
  emailRequired: 'Email is required',
  emailInvalid: 'Invalid email format',
  phoneRequired: 'Phone number is required',
  phoneDigits: 'Phone number must be 10 digits',
  passwordRequired: 'Password is required',
  passwordTooShort: 'Password must be at least 6 characters',
  roleNotFound: 'Role not found',
  emailTaken: 'A user with this email already exists',
  userNameTaken: 'A user with this user name already exists',
  protectedEdit: 'This user is protected and cannot be edited',
  protectedDelete: 'This user is protected and cannot be deleted',
  selfDelete: 'You cannot delete your own account',
  notFound: 'User not found',
  invalidId: 'Invalid user id',
  created: 'User created successfully',
  updated: 'User updated successfully',
  deleted: 'User deleted successfully',
  /** docs/product.md §2.8: the list's empty text. */
  empty: 'No User found.',
} as const;

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const userFields = {
  firstName: requiredText(userMessages.firstNameRequired, 100),
  lastName: requiredText(userMessages.lastNameRequired, 100),
  // The role dropdown sends the role's _id.
  roleId: requiredText(userMessages.roleRequired, 64).regex(uuidPattern, userMessages.roleNotFound),
  userName: requiredText(userMessages.userNameRequired, 100),
  email: requiredText(userMessages.emailRequired, 254).pipe(z.email(userMessages.emailInvalid)),
  phone: requiredText(userMessages.phoneRequired, 32).regex(/^\d{10}$/, userMessages.phoneDigits),
};

/** Add New User: every field, the password included. */
export const userCreateBodySchema = strictObject({
  ...userFields,
  password: z
    .string({ error: (i) => (i.input == null ? userMessages.passwordRequired : 'password must be text') })
    .min(1, userMessages.passwordRequired)
    .min(6, userMessages.passwordTooShort)
    .max(256, 'Password must be at most 256 characters'),
});
export type UserCreateBodyInput = z.input<typeof userCreateBodySchema>;
export type UserCreateBody = z.output<typeof userCreateBodySchema>;

/**
 * Edit User: the same fields without a password. docs/product.md §5.9 removes it from the edit payload; one sent
 * anyway is accepted (bounded) and dropped, never applied. Any other unknown field is refused.
 */
export const userUpdateBodySchema = strictObject({
  ...userFields,
  password: z
    .string({ error: 'password must be text' })
    .max(256, 'Password must be at most 256 characters')
    .optional(),
}).transform(({ password: _dropped, ...fields }) => fields);
export type UserUpdateBody = z.output<typeof userUpdateBodySchema>;

export const userListQuerySchema = pageQuery.extend({
  search: z.string().trim().max(100, 'search must be at most 100 characters').optional(),
});
/**
 * The export's columns, keyed as the list's table columns, in the list's order (never a password
 * hash: the service's columns hold none).
 */
export const userExportColumns = {
  userName: 'User Name',
  email: 'Email',
  phonenumber: 'Phone',
  role: 'Role',
  createdAt: 'Created At',
} as const;
/** Ours (issue 17): the users list's search and the columns shown for its CSV export. */
export const userExportQuerySchema = strictObject({
  search: userListQuerySchema.shape.search,
  columns: exportColumnsQuery(userExportColumns),
});
export type UserExportQuery = z.output<typeof userExportQuerySchema>;

export const userSchema = z.object({
  _id: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  userName: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  /** docs/product.md §3.3 names the list column phonenumber; the same value as phone. */
  phonenumber: z.string().nullable(),
  roleId: z.string(),
  role: z.object({ _id: z.string(), roleName: z.string(), type: z.enum(roleTypes) }).nullable(),
  isDeletable: z.boolean(),
  createdAt: z.string(),
});
export type User = z.infer<typeof userSchema>;

export const userListSchema = z.object({
  users: z.array(userSchema),
  totalPages: z.number().int(),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type UserList = z.infer<typeof userListSchema>;

export const userIdParamSchema = z.object({ id: z.uuid({ error: userMessages.invalidId }) });
export const userResponseSchema = envelope(userSchema);
export const userListResponseSchema = envelope(userListSchema);
export const userDeleteResponseSchema = envelope(z.null());

/** The users list's search, exactly as its query takes it (a bulk action's `allMatching`). */
export const userBulkFiltersSchema = listFilters({ search: userListQuerySchema.shape.search });
export type UserBulkFilters = z.output<typeof userBulkFiltersSchema>;

/** POST users/bulk-delete: delete the picked or matching users (decision 055). */
export const userBulkDeleteBodySchema = selection(userBulkFiltersSchema, {});
export type UserBulkDeleteBody = z.output<typeof userBulkDeleteBodySchema>;
