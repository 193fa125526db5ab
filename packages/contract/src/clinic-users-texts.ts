/*
 * Clinic users (issue 39 item 3, decision 088): a customer's own people, who sign in on the same
 * sign-in page and work in the clinic portal. The paths, roles and texts, kept free of zod so the
 * public invitation page and the portal's first screen load little; the schemas are in clinic-users.ts.
 */

const clinic = '/api/v1/clinic';
const customers = '/api/v1/admin/customers';

/** The module's own API paths (a module's paths live in its contract, decision 067). */
export const clinicUserPaths = {
  /** The supplier's admin invites a clinic's manager (POST), and sees its users (GET). */
  adminInvitations: (customerId: string) => `${customers}/${customerId}/invitations`,
  adminUsers: (customerId: string) => `${customers}/${customerId}/users`,
  /** Public, the mailed link's key: GET reads the invitation, POST accepts it with a password. */
  invitation: (token: string) => `${clinic}/invitation/${token}`,
  /** The signed-in clinic user's own: who they are and their clinic; session; sign-out; two-step sign-in. */
  me: `${clinic}/me`,
  session: `${clinic}/session`,
  logout: `${clinic}/logout`,
  mfa: `${clinic}/profile/mfa`,
  mfaSetup: `${clinic}/profile/mfa/setup`,
  mfaConfirm: `${clinic}/profile/mfa/confirm`,
  /** A manager's own clinic's users: list (GET), invite (POST), remove (DELETE users/:id). */
  users: `${clinic}/users`,
  user: (id: string) => `${clinic}/users/${id}`,
} as const;

/** The invitation's public page (no sign-in); the portal's screens are the web's (lib/paths.ts). */
export const invitationPagePath = (token: string) => `/invite/${token}`;

/** A clinic user's role: its manager (invites and removes staff) or its staff. */
export const clinicRoles = ['manager', 'staff'] as const;
export type ClinicRole = (typeof clinicRoles)[number];
export const clinicRoleLabels: Record<ClinicRole, string> = { manager: 'Manager', staff: 'Staff' };

/** How long an invitation's link works. */
export const invitationValidHours = 72;

export const clinicUserMessages = {
  emailRequired: 'Email is required',
  emailInvalid: 'Invalid email format',
  roleRequired: 'Role is required',
  roleInvalid: 'Role must be manager or staff',
  firstNameRequired: 'First name is required',
  lastNameRequired: 'Last name is required',
  customerNotFound: 'Customer not found',
  userNotFound: 'User not found',
  emailTaken: 'A user with this email already exists',
  invitationPending: 'An invitation to this email is already waiting to be accepted',
  invitationSent: 'Invitation sent',
  /** The link's answers: unknown, used or expired, each said plainly. */
  invitationNotFound: 'This invitation link is not valid. Ask for a new invitation.',
  invitationUsed: 'This invitation has already been used. Sign in with your email and password.',
  invitationExpired: 'This invitation has expired. Ask for a new invitation.',
  invitationRevoked: 'This invitation is no longer valid. Ask for a new invitation.',
  accepted: 'Your account is ready',
  removed: 'User removed',
  removeSelf: 'You cannot remove your own account',
  managersOnly: 'Only a clinic manager can do this',
  /** The portal's texts. */
  usersTitle: 'Users',
  usersEmpty: 'No users yet.',
  inviteTitle: 'Invite a colleague',
  loggedOut: 'Logout Successfully',
} as const;

/** Admin Logs' words for the module's routes (contract log-words.ts), after the console's prefix. */
export const clinicUserLogPhrases: [method: string, pattern: RegExp, text: string][] = [
  ['POST', /^\/customers\/:id\/invitations$/, 'Invited a clinic user of a customer'],
  ['GET', /^\/customers\/:id\/users$/, "Viewed a customer's clinic users"],
];

/** The same for the clinic portal's routes (after /api/v1/clinic). */
export const clinicPortalLogPhrases: [method: string, pattern: RegExp, text: string][] = [
  ['GET', /^\/invitation\/:token$/, 'Opened an invitation to the clinic portal'],
  ['POST', /^\/invitation\/:token$/, 'Accepted an invitation to the clinic portal'],
  ['GET', /^\/me$/, 'Opened the clinic portal'],
  ['GET', /^\/session$/, 'Kept the clinic portal session alive'],
  ['POST', /^\/logout$/, 'Signed out of the clinic portal'],
  ['GET', /^\/profile\/mfa$/, 'Viewed their two-step sign-in'],
  ['POST', /^\/profile\/mfa\/(setup|confirm)$/, 'Set up two-step sign-in ($1)'],
  ['GET', /^\/users$/, "Listed their clinic's users"],
  ['POST', /^\/users$/, 'Invited a colleague to the clinic portal'],
  ['DELETE', /^\/users\/:id$/, 'Removed a clinic user'],
];
