import { z } from 'zod';

/**
 * One permission, declared here once: the API's routes name it (`config.permission`), the console's
 * screens name it, and a start-up grants it to existing roles (apps/api/src/bootstrap.ts): to the
 * first admin's role always, and to every role carrying `grantedWith` when it says so, which is how a
 * new permission that splits an old one keeps what those roles could do (decision 067).
 */
export type PermissionEntry = {
  name: string;
  group: string;
  explanation: string;
  /** When it first appears on a database, roles carrying this permission get it too. */
  grantedWith?: string;
};

/**
 * What a role of type admin may do in the console, beyond what every signed-in admin may do
 * (their own profile, password, two-step sign-in and session). A fixed list: the API checks these
 * names on every request and each admin route declares the one it needs; a role carries a set of
 * them. The console shows them grouped, each with its explanation.
 */
export const permissionCatalogue = [
  {
    name: 'devices.view',
    group: 'Devices',
    explanation:
      'See the machines, their status, enrolment, app versions and alarms, and the app updates published.',
  },
  {
    name: 'devices.edit',
    group: 'Devices',
    explanation:
      "Add machines, change a machine's details, status and doctor, and acknowledge or resolve its alarms.",
  },
  {
    name: 'devices.enrol',
    group: 'Devices',
    explanation: "Issue a machine's one-time enrolment code, or revoke its credential.",
  },
  {
    name: 'commands.send',
    group: 'Devices',
    explanation: 'Send machines commands that do not interrupt them (sync now, diagnostics, release a hold).',
    // Roles that could change machines can ask them to sync or send their logs.
    grantedWith: 'devices.edit',
  },
  {
    name: 'commands.disruptive',
    group: 'Devices',
    explanation: 'Send commands that interrupt a machine: restart its app, safety hold, enrol again.',
    // As disruptive as revoking a credential, which these roles could already do.
    grantedWith: 'devices.enrol',
  },
  {
    name: 'groups.manage',
    group: 'Devices',
    explanation: 'Create, rename and delete machine groups, and add or remove their machines.',
    grantedWith: 'devices.edit',
  },
  {
    name: 'patients.view',
    group: 'Health data',
    explanation: 'See doctors, patients, technicians and treatment records: health data.',
  },
  {
    name: 'patients.reveal',
    group: 'Health data',
    explanation: "Reveal a patient's or doctor's masked email, phone and address, giving a reason.",
  },
  {
    name: 'erasure.manage',
    group: 'Health data',
    explanation:
      "Record patients' erasure requests and decide them, signed: erase, erase in part, or refuse on a legal basis.",
  },
  {
    name: 'logs.view',
    group: 'Admin Logs',
    explanation: 'Read the access logs and error logs: who did what, and what failed.',
  },
  {
    name: 'users.manage',
    group: 'Users and roles',
    explanation: 'See, add, edit and delete console and app users, and assign their machines.',
  },
  {
    name: 'roles.manage',
    group: 'Users and roles',
    explanation: 'Add, edit and delete roles, and choose the permissions each carries.',
  },
  {
    name: 'subscriptions.view',
    group: 'Subscriptions',
    explanation: 'See subscriptions and their payment status.',
  },
  {
    name: 'subscriptions.manage',
    group: 'Subscriptions',
    explanation: 'Create a subscription and email its payment link to a customer.',
  },
  {
    name: 'licences.manage',
    group: 'Subscriptions',
    explanation:
      'Give a machine time without payment: exempt it, extend its paid-through date or grant grace.',
    // Roles that could manage subscriptions before licences existed keep doing what came with them.
    grantedWith: 'subscriptions.manage',
  },
  {
    name: 'customers.view',
    group: 'Customers',
    explanation:
      'See the customers (clinics), their machines, subscriptions, licences and activity, and who held a machine when.',
    // Roles that saw subscriptions saw their customers' names and emails already.
    grantedWith: 'subscriptions.view',
  },
  {
    name: 'customers.manage',
    group: 'Customers',
    explanation: 'Add, edit and delete customers, and assign machines to them, move or return machines.',
    grantedWith: 'subscriptions.manage',
  },
  {
    name: 'app-updates.publish',
    group: 'App updates',
    explanation: "Upload a new version of the machines' app, including a forced update.",
  },
  {
    name: 'security.manage',
    group: 'Security',
    explanation:
      "Look after other users' sign-in: see their two-step sign-in and reset it when they lost their authenticator.",
  },
  {
    name: 'security.review',
    group: 'Security',
    explanation:
      "Review emergency (break-glass) access to patients' data: be told of each use at once, and sign it off.",
    // Roles that looked after others' sign-in are the security reviewers this splits from.
    grantedWith: 'security.manage',
  },
  {
    name: 'retention.manage',
    group: 'Security',
    explanation:
      'Place and lift legal holds on patients and machines, which keep their records past the retention schedule.',
  },
  {
    name: 'safety-notices.manage',
    group: 'Field safety',
    explanation:
      "Draft and send field safety notices to affected machines' clinics, and follow acknowledgements and remedies.",
  },
] as const satisfies readonly PermissionEntry[];

export type Permission = (typeof permissionCatalogue)[number]['name'];

// A `grantedWith` must name a permission of the catalogue: checked when the contract compiles.
type GrantedWith = Extract<(typeof permissionCatalogue)[number], { grantedWith: string }>['grantedWith'];
const _grantedWithIsKnown: [GrantedWith] extends [Permission] ? true : never = true;

/** Every permission, in catalogue order (the order a role's set is stored and answered in). */
export const permissionNames = permissionCatalogue.map((p) => p.name) as [Permission, ...Permission[]];

export const isPermission = (name: string): name is Permission =>
  (permissionNames as readonly string[]).includes(name);

/**
 * What an admin route needs: one permission, or `any-admin` for what every signed-in admin needs
 * (their own profile, password, two-step sign-in and session, and the lists the console's frame reads).
 */
export type RoutePermission = Permission | 'any-admin';

export const permissionMessages = {
  /** The 403 of a route whose permission the signed-in admin's role lacks. */
  missing: (permission: Permission) =>
    `You do not have access to this: it needs the permission "${permission}"`,
  unknown: (name: string) => `permissions: "${name}" is not a known permission`,
  notAList: 'permissions must be a list of permission names',
} as const;

/**
 * Nobody grants what they do not hold (decision 063): an admin assigns only roles whose permissions
 * their own role carries, adds to a role only permissions they hold, manages no user or role that
 * carries more than they do, and never changes their own role. Each refusal is a 403 naming why.
 */
export const grantMessages = {
  notHeld: (permission: Permission) =>
    `You cannot grant the permission "${permission}": your own role does not carry it`,
  outranked: (permission: Permission) =>
    `You cannot change a user or role that carries the permission "${permission}": your own role does not carry it`,
  ownRole: 'You cannot change your own role',
  ownRolePermissions: "You cannot change your own role's type or permissions",
} as const;

/** The first of `wanted` (in catalogue order) that `held` lacks, or null when `held` covers them all. */
export const firstNotHeld = (held: readonly string[], wanted: readonly string[]): Permission | null =>
  permissionNames.find((p) => wanted.includes(p) && !held.includes(p)) ?? null;

/** The permission a 403 answer's msg names (`permissionMessages.missing`), or null for any other msg. */
export const missingPermissionOf = (msg: string): Permission | null =>
  permissionNames.find((p) => permissionMessages.missing(p) === msg) ?? null;

/** The catalogue entry of one permission. */
const permissionInfo = (name: Permission) => permissionCatalogue.find((p) => p.name === name)!;

/** The console's texts where a role lacks what a screen needs (decision 047). */
export const noAccessTexts = {
  title: 'You do not have access',
  missing: (name: Permission) => {
    const { explanation } = permissionInfo(name);
    return `This screen needs the permission "${name}", which your role does not carry: ${explanation.charAt(0).toLowerCase()}${explanation.slice(1)}`;
  },
  back: 'Back to Dashboard',
} as const;

/**
 * A role's permissions as a request sends them: known names only (a 400 naming the field on any
 * other), each once, answered in catalogue order whatever order they came in.
 */
export const permissionListSchema = z
  .array(
    z
      .string({ error: permissionMessages.notAList })
      .max(100, permissionMessages.notAList)
      .refine(isPermission, { error: (issue) => permissionMessages.unknown(String(issue.input)) }),
    { error: permissionMessages.notAList },
  )
  .max(permissionNames.length * 2, `permissions must list at most ${permissionNames.length * 2} names`)
  .transform((names) => permissionNames.filter((p) => names.includes(p)));

/** A role's set as stored, in catalogue order; a name no longer in the catalogue is dropped. */
export const knownPermissions = (names: readonly string[]): Permission[] =>
  permissionNames.filter((p) => names.includes(p));
