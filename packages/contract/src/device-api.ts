import { z } from 'zod';
import { appCommandSchema } from './commands.ts';
import { envelope } from './envelope.ts';
import { strictObject } from './fields.ts';

/*
 * The machines' side (docs/device-api.md): the app on each treatment machine enrols with a one-time
 * code, signs its doctors and technicians in, and sends what it records in batches of items that
 * carry their own ids. Every shape here is the app's contract; the OpenAPI tag is "device".
 */

export const deviceApiMessages = {
  codeRequired: 'code is required',
  codeInvalid: 'Enrolment code is invalid, used or expired',
  credentialInvalid: 'Device credential is invalid or revoked',
  credentialMissing: 'Device credential required (Authorization: Device <credential>)',
  sessionMissing: 'App session required (X-App-Session header)',
  sessionInvalid: 'App session is invalid or expired',
  refreshInvalid: 'Refresh token is invalid or expired',
  wrongCredentials: 'Invalid user name or password',
  onlyTechnicians: 'Only a technician of this machine can register doctors',
  onlyDoctors: 'Only a doctor of this machine can do this',
  machineMismatch: 'machineNumber must be this machine’s number',
  deviceTimeInFuture: 'time is in the future',
  deviceTimeTooOld: 'time is more than a year old',
  userNotOnMachine: 'userId is not a user of this machine',
  patientNotFound: 'patientId names no patient of this doctor',
  roleNotApp: 'roleId must name a role of type app',
  userNameTaken: 'username is already used on this machine',
  imageInvalid: 'image must be a PNG or JPEG',
  imageTooLarge: 'image is larger than 5 MB',
  rateLimited: 'Too many requests from this machine; retry later',
  credentialsThrottled: 'Too many invalid device credentials from this address; retry later',
  // Admin side.
  codeIssued: 'Enrolment code issued',
  revoked: 'Device credential revoked',
  notEnrolled: 'This device is not enrolled',
  assignedMachines: 'Machines assigned',
  notAppUser: 'Only users whose role is of type app can be assigned to machines',
  /** A technician's sign-in name is their user name; on one machine a name belongs to one person. */
  userNameTakenOnMachines: (userName: string, machines: readonly string[]) =>
    `deviceIds: the user name ${userName} is already used by a doctor on ${machines.length === 1 ? 'machine' : 'machines'} ${machines.join(', ')}`,
} as const;

const uuid = (field: string) => z.uuid({ error: `${field} must be a UUID` });
const text = (field: string, max: number) =>
  z
    .string({ error: (i) => (i.input == null ? `${field} is required` : `${field} must be text`) })
    .trim()
    .min(1, `${field} is required`)
    .max(max, `${field} must be at most ${max} characters`);
const optionalText = (field: string, max: number) =>
  z
    .string({ error: `${field} must be text` })
    .trim()
    .max(max, `${field} must be at most ${max} characters`)
    .optional();
const isoTime = (field: string) =>
  z.iso
    .datetime({ offset: true, error: `${field} must be an ISO 8601 date-time with a time zone` })
    // Bounded like every string of the contract (strict-input.test.ts walks the documented items too).
    .max(64, `${field} must be an ISO 8601 date-time with a time zone`);
const number = (field: string, min: number, max: number) =>
  z
    .number({ error: (i) => (i.input == null ? `${field} is required` : `${field} must be a number`) })
    .min(min, `${field} must be at least ${min}`)
    .max(max, `${field} must be at most ${max}`);

/** Batches: at most this many items; each item is answered on its own. */
export const maxBatchItems = 500;

// ---------- enrolment ----------
/** Typed by a person: 10 characters of Crockford base32 shown as XXXXX-XXXXX (50 bits, 24 h, single use). */
export const enrolBodySchema = strictObject({
  code: z
    .string({ error: deviceApiMessages.codeRequired })
    .trim()
    .min(1, deviceApiMessages.codeRequired)
    .max(32, 'code must be at most 32 characters'),
});
export const enrolResultSchema = z.object({
  deviceId: z.string(),
  machineNumber: z.string(),
  serialNumber: z.string(),
  /** Sent as `Authorization: Device <credential>` on every later call. Shown once; kept hashed. */
  credential: z.string(),
});
export type EnrolResult = z.infer<typeof enrolResultSchema>;
export const enrolResponseSchema = envelope(enrolResultSchema);

// ---------- check-in ----------
export const heartbeatBodySchema = strictObject({
  versionCode: z
    .number({ error: 'versionCode must be a whole number' })
    .int('versionCode must be a whole number')
    .min(0, 'versionCode must be at least 0')
    .max(2_147_483_647, 'versionCode is too large'),
  versionName: text('versionName', 64),
  /** The app's package (com.treatment.device): versions are counted per app (issue 35 item 2). */
  appName: text('appName', 120).optional(),
  latitude: number('latitude', -90, 90).optional(),
  longitude: number('longitude', -180, 180).optional(),
  /** A treatment runs: what waits for the maintenance window is held until a heartbeat says false. */
  busy: z.boolean({ error: 'busy must be true or false' }).optional(),
});
export const heartbeatResultSchema = z.object({
  serverTime: z.string(),
  /** When the app should send its next heartbeat. */
  nextHeartbeatSeconds: z.number().int(),
  /**
   * The machine's licence version now: when it is higher than the `ver` of the licence the app
   * holds, the app fetches a new one (GET /api/v1/app/licence; docs/device-api.md).
   */
  licenceVersion: z.number().int(),
  /** The machine's settings version: above the one applied, fetch GET /api/v1/app/settings and apply. */
  settingsVersion: z.number().int(),
  /**
   * Commands waiting for the machine, oldest first (usually none): the same as the long-poll
   * GET /api/v1/app/commands hands over. Run each once, by its `_id`, and report its result.
   */
  commands: z.array(appCommandSchema),
});
export type HeartbeatResult = z.infer<typeof heartbeatResultSchema>;
export const heartbeatResponseSchema = envelope(heartbeatResultSchema);

// ---------- people signing in on the machine ----------

export const appLoginBodySchema = strictObject({
  username: text('username', 64),
  password: z
    .string({ error: 'password is required' })
    .min(1, 'password is required')
    .max(256, 'password must be at most 256 characters'),
});
export const appRefreshBodySchema = strictObject({ refreshToken: text('refreshToken', 128) });

export const appUserKinds = ['doctor', 'technician'] as const;
export type AppUserKind = (typeof appUserKinds)[number];
export const appUserSchema = z.object({
  kind: z.enum(appUserKinds),
  /** The doctor's or technician's record id on this machine. */
  _id: z.string(),
  /** The numeric id the console shows (Doctor ID) and the logs carry. */
  userId: z.number().int(),
  userName: z.string(),
});
export type AppUser = z.infer<typeof appUserSchema>;
export const appSessionSchema = z.object({
  /** Sent as `X-App-Session` with the device credential; short-lived. */
  accessToken: z.string(),
  accessExpiresIn: z.number().int(),
  /** Exchanged once for a new pair at token/refresh; a used one is dead. */
  refreshToken: z.string(),
  refreshExpiresIn: z.number().int(),
  user: appUserSchema,
});
export type AppSession = z.infer<typeof appSessionSchema>;
export const appSessionResponseSchema = envelope(appSessionSchema);
export const appMeSchema = z.object({
  user: appUserSchema,
  device: z.object({ deviceId: z.string(), machineNumber: z.string(), serialNumber: z.string() }),
});
export const appMeResponseSchema = envelope(appMeSchema);

// ---------- batch items ----------

/** The spec's "Doctor/patient form fields" (docs/product.md §3, §5.7), plus email and the item's own id. */
const personFields = {
  id: uuid('id'),
  username: text('username', 64),
  nickName: text('nickName', 64),
  email: z.email({ error: 'email must be a valid email' }).max(254, 'email must be at most 254 characters'),
  sex: z
    .number({ error: (i) => (i.input == null ? 'sex is required' : 'sex must be a number') })
    .int('sex must be a whole number')
    .min(0, 'sex must be 0, 1 or 2')
    .max(2, 'sex must be 0, 1 or 2'),
  age: z
    .number({ error: (i) => (i.input == null ? 'age is required' : 'age must be a number') })
    .int('age must be a whole number')
    .min(0, 'age must be at least 0')
    .max(150, 'age must be at most 150'),
  phonenumber: z
    .string({ error: 'phonenumber is required' })
    .max(16, 'phonenumber must be 10 to 15 digits with an optional leading +')
    .regex(/^\+?[0-9]{10,15}$/, 'phonenumber must be 10 to 15 digits with an optional leading +'),
  machineNumber: text('machineNumber', 64),
  lat: number('lat', -90, 90),
  long: number('long', -180, 180),
  address: text('address', 500),
  city: text('city', 120),
  state: text('state', 120),
  country: text('country', 120),
  /** When the app registered the person (device time). */
  createdAt: isoTime('createdAt'),
};
/** A technician registers a doctor; the doctor then signs in on this machine with username and password. */
export const doctorItemSchema = strictObject({
  ...personFields,
  password: z
    .string({ error: 'password is required' })
    .min(6, 'password must be at least 6 characters')
    .max(256, 'password must be at most 256 characters'),
  roleId: z
    .number({ error: (i) => (i.input == null ? 'roleId is required' : 'roleId must be a number') })
    .int('roleId must be a whole number')
    .min(1, 'roleId must be at least 1'),
});
export type DoctorItem = z.input<typeof doctorItemSchema>;
/** A doctor registers a patient (patients do not sign in, so no password or role). */
export const patientItemSchema = strictObject(personFields);
export type PatientItem = z.input<typeof patientItemSchema>;

export const treatmentImageItemSchema = strictObject({
  id: uuid('id'),
  /** PNG or JPEG, base64; checked by content, re-encoded, at most 5 MB decoded. */
  data: z.base64({ error: 'data must be base64' }).max(7_000_000, 'data must be at most 5 MB decoded'),
});
export const maxTreatmentImages = 6;
export const treatmentItemSchema = strictObject({
  id: uuid('id'),
  /** The patient's id as the app generated it when registering them. */
  patientId: uuid('patientId'),
  treatmentDevice: text('treatmentDevice', 120),
  treatmentPlan: text('treatmentPlan', 500),
  treatmentStartTime: isoTime('treatmentStartTime'),
  treatmentEndTime: isoTime('treatmentEndTime'),
  /** Minutes. */
  treatmentDuration: number('treatmentDuration', 0, 24 * 60),
  /** Joules per pulse, and joules delivered in total. */
  treatmentEnergy: number('treatmentEnergy', 0, 1_000),
  totalEnergyOutput: number('totalEnergyOutput', 0, 10_000_000),
  treatmentImages: z
    .array(treatmentImageItemSchema)
    .max(maxTreatmentImages, `treatmentImages must hold at most ${maxTreatmentImages} images`)
    .default([]),
});
export type TreatmentItem = z.input<typeof treatmentItemSchema>;

/** docs/product.md §3.8 "Access log": resource, location, time, user. */
export const accessLogItemSchema = strictObject({
  id: uuid('id'),
  resource: text('resource', 200),
  /** The app's network address when it logged this; the request's address when left out. */
  location: z
    .string({ error: 'location must be text' })
    .max(45, 'location must be an IP address')
    .regex(/^[0-9A-Fa-f:.]{2,45}$/, 'location must be an IP address')
    .optional(),
  time: isoTime('time'),
  /** The numeric userId of the doctor or technician of this machine; left out before anyone signed in. */
  userId: z.number({ error: 'userId must be a number' }).int('userId must be a whole number').optional(),
});
export type AccessLogItem = z.input<typeof accessLogItemSchema>;

/** docs/product.md §3.8 "Error log": resource, functionName, utcTime, user. */
export const errorLogItemSchema = strictObject({
  id: uuid('id'),
  resource: text('resource', 200),
  functionName: text('functionName', 120),
  message: optionalText('message', 1000),
  utcTime: isoTime('utcTime'),
  userId: z.number({ error: 'userId must be a number' }).int('userId must be a whole number').optional(),
});
export type ErrorLogItem = z.input<typeof errorLogItemSchema>;

/**
 * A batch body. Items are parsed one by one on the server (a bad item is refused with its reason,
 * the rest are taken), so the route only checks the envelope; the item schema is in the docs.
 */
export const batchBodySchema = <T extends z.ZodType>(item: T, description: string) => {
  const { $schema: _dialect, ...itemJsonSchema } = z.toJSONSchema(item, {
    io: 'input',
    unrepresentable: 'any',
  });
  return strictObject({
    items: z
      .array(z.unknown().meta(itemJsonSchema), {
        error: 'items must be a list',
      })
      .min(1, 'items must hold at least 1 item')
      .max(maxBatchItems, `items must hold at most ${maxBatchItems} items`)
      .describe(description),
  });
};

export const batchItemResultSchema = z.object({
  /** The item's own id, echoed (null when the item had no readable id). */
  id: z.string().nullable(),
  status: z.enum(['accepted', 'refused']),
  /** Why a refused item was refused; the field is named. */
  reason: z.string().optional(),
});
export const batchResultSchema = z.object({
  accepted: z.number().int(),
  refused: z.number().int(),
  results: z.array(batchItemResultSchema),
});
export type BatchResult = z.infer<typeof batchResultSchema>;
export const batchResponseSchema = envelope(batchResultSchema);
