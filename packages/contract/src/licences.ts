import { z } from 'zod';
import { envelope } from './envelope.ts';
import { strictObject } from './fields.ts';

/*
 * A licence per machine (issue 34, decision 068): derived from the machine's subscriptions and kept
 * current by payments, webhooks, the clock and admin actions; handed to the machine as a signed
 * token it verifies offline, and obeyed by it (docs/device-api.md).
 */

/**
 * active: paid through a date. grace: past the paid-through date (or after a failed renewal) by at
 * most LICENCE_GRACE_DAYS, or in grace an admin granted. lapsed: had a paid subscription, past its
 * grace. exempt: an admin's override with a reason and an end date (loaner, trial, service).
 * unlicensed: never had a paid subscription.
 */
export const licenceStates = ['active', 'grace', 'lapsed', 'exempt', 'unlicensed'] as const;
export type LicenceState = (typeof licenceStates)[number];

export const licenceStateLabels: Record<LicenceState, string> = {
  active: 'Active',
  grace: 'In grace',
  lapsed: 'Lapsed',
  exempt: 'Exempt',
  unlicensed: 'Unlicensed',
};

/**
 * How hard a licence bites (LICENCE_ENFORCEMENT): off (issued and shown, never locking), lapsed (a
 * lapsed machine is locked; an unlicensed one works and is flagged: the default, so installations
 * and demo data without subscriptions keep working) or strict (unlicensed is locked too).
 */
export const licenceEnforcements = ['off', 'lapsed', 'strict'] as const;
export type LicenceEnforcement = (typeof licenceEnforcements)[number];

/** Whether a machine in this state may start a treatment under this enforcement. */
export function licenceLocks(state: LicenceState, enforcement: LicenceEnforcement): boolean {
  if (enforcement === 'off') return false;
  if (state === 'lapsed') return true;
  return enforcement === 'strict' && state === 'unlicensed';
}

/** Why a state changed: an event's cause, kept in the machine's licence history and the audit trail. */
export const licenceCauses = ['payment', 'webhook', 'expiry', 'admin', 'subscription'] as const;
export type LicenceCause = (typeof licenceCauses)[number];

export const licenceCauseLabels: Record<LicenceCause, string> = {
  payment: 'Payment',
  webhook: 'Payment provider',
  expiry: 'Time passed',
  admin: 'Admin',
  subscription: 'Subscription changed',
};

/** The override kinds an admin picks for an exemption (the reason is free text beside it). */
export const exemptionKinds = ['loaner', 'trial', 'service', 'other'] as const;
export type ExemptionKind = (typeof exemptionKinds)[number];
export const exemptionKindLabels: Record<ExemptionKind, string> = {
  loaner: 'Loaner',
  trial: 'Trial',
  service: 'Service',
  other: 'Other',
};

export const licenceMessages = {
  notFound: 'Licence not found',
  reasonRequired: 'Reason is required',
  reasonTooLong: 'Reason must be at most 500 characters',
  untilRequired: 'End date is required',
  untilInvalid: 'End date must be a date (YYYY-MM-DD)',
  untilPast: 'End date must be after today',
  untilTooFar: 'End date must be within 2 years',
  kindInvalid: `kind must be one of ${exemptionKinds.join(', ')}`,
  exempted: 'The machine is exempt until the end date',
  exemptionEnded: 'The exemption has ended',
  noExemption: 'This machine has no exemption to end',
  // The machine's side (docs/device-api.md).
  refusedLocked: (state: LicenceState) =>
    `Treatment refused: the machine's licence is ${licenceStateLabels[state].toLowerCase()}`,
  refusedStale: 'Treatment refused: the machine has had no licence from the server for too long',
  /** Logged by the app when a licence fails verification: it keeps the one it had. */
  tokenRejected: 'Licence not accepted: it failed verification',
} as const;

const dateField = z
  .string({ error: (i) => (i.input == null ? licenceMessages.untilRequired : licenceMessages.untilInvalid) })
  .min(1, licenceMessages.untilRequired)
  .max(10, licenceMessages.untilInvalid)
  .pipe(z.iso.date({ error: licenceMessages.untilInvalid }));

const reasonField = z
  .string({ error: licenceMessages.reasonRequired })
  .trim()
  .min(1, licenceMessages.reasonRequired)
  .max(500, licenceMessages.reasonTooLong);

/** An admin's exemption: a kind, a reason and the last day it holds (UTC). */
export const exemptionBodySchema = strictObject({
  kind: z.enum(exemptionKinds, { error: licenceMessages.kindInvalid }),
  reason: reasonField,
  until: dateField,
});
export type ExemptionBody = z.output<typeof exemptionBodySchema>;

/** Ending an exemption early asks for a reason too. */
export const endExemptionBodySchema = strictObject({ reason: reasonField });

export const licenceEventSchema = z.object({
  _id: z.string(),
  at: z.string(),
  fromState: z.enum(licenceStates).nullable(),
  toState: z.enum(licenceStates),
  cause: z.enum(licenceCauses),
  /** The admin's email when an admin caused it. */
  actor: z.string().nullable(),
  reason: z.string().nullable(),
  paidThrough: z.string().nullable(),
  graceUntil: z.string().nullable(),
});
export type LicenceEvent = z.infer<typeof licenceEventSchema>;

/** A machine's licence as the console shows it (Device Details' Licence card). */
export const licenceSchema = z.object({
  deviceId: z.string(),
  state: z.enum(licenceStates),
  /** Whether the machine refuses new treatments now (the state under LICENCE_ENFORCEMENT). */
  locked: z.boolean(),
  enforcement: z.enum(licenceEnforcements),
  paidThrough: z.string().nullable(),
  graceUntil: z.string().nullable(),
  /** Changes whenever anything in the licence does; the machine fetches a new token when it grows. */
  version: z.number().int(),
  since: z.string().nullable(),
  exemption: z
    .object({
      kind: z.enum(exemptionKinds),
      reason: z.string(),
      until: z.string(),
      by: z.string().nullable(),
      at: z.string(),
    })
    .nullable(),
  events: z.array(licenceEventSchema),
});
export type Licence = z.infer<typeof licenceSchema>;
export const licenceResponseSchema = envelope(licenceSchema);

// ---------- the machine's side ----------

/** The signed licence's claims (a JWS, EdDSA with Ed25519; `kid` in its header names the key). */
export const licenceClaimsSchema = z.object({
  /** The server's public address. */
  iss: z.string(),
  /** The machine's serial number: a licence is for one machine only. */
  sub: z.string(),
  /** The machine's id on the server. */
  deviceId: z.string(),
  state: z.enum(licenceStates),
  /** Whether the machine must refuse to start a treatment (state under the server's enforcement). */
  locked: z.boolean(),
  enforcement: z.enum(licenceEnforcements),
  paidThrough: z.string().nullable(),
  graceUntil: z.string().nullable(),
  /** The licence's version: the heartbeat answers the newest, and the app fetches when it is higher. */
  ver: z.number().int(),
  /** Issued at and expires at (seconds): past `exp` the machine refuses new treatments (offline validity). */
  iat: z.number().int(),
  exp: z.number().int(),
});
export type LicenceClaims = z.infer<typeof licenceClaimsSchema>;

/** GET /api/v1/app/licence. */
export const appLicenceResponseSchema = envelope(
  z.object({ token: z.string(), version: z.number().int(), expiresAt: z.string() }),
);

/**
 * GET /.well-known/jwks.json: the public keys licences are signed with (RFC 7517), the one that
 * signs now and any retired one whose licences may still be valid. Not in the `{ code, msg, data }`
 * envelope: a JWKS is read by standard libraries.
 */
export const licenceJwksSchema = z.object({
  keys: z.array(
    z.object({
      kty: z.literal('OKP'),
      crv: z.literal('Ed25519'),
      x: z.string(),
      kid: z.string(),
      alg: z.literal('EdDSA'),
      use: z.literal('sig'),
    }),
  ),
});

export const licencePaths = {
  /** A machine's own signed licence (device credential). */
  appLicence: '/api/v1/app/licence',
  /** The public keys machines verify licences with. */
  jwks: '/.well-known/jwks.json',
  /** A machine's licence in the console. */
  deviceLicence: (deviceId: string) => `/api/v1/admin/machine/${deviceId}/licence`,
  deviceExemption: (deviceId: string) => `/api/v1/admin/machine/${deviceId}/licence/exemption`,
} as const;
