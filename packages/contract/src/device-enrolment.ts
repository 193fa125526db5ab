import { z } from 'zod';
import { envelope } from './envelope.ts';
import { strictObject } from './fields.ts';

/*
 * The console's side of the machines' identity (docs/device-api.md): enrolment status and codes on
 * Device Details, and which machines a technician may sign in on.
 */

export const enrolmentStatusSchema = z.object({
  enrolled: z.boolean(),
  /** When the live credential was issued (null when none is). */
  enrolledAt: z.string().nullable(),
  /** When the last credential was revoked, if the device has no live one since. */
  revokedAt: z.string().nullable(),
  /** An unused code is waiting (its value is never shown again). */
  pendingCodeExpiresAt: z.string().nullable(),
});
export type EnrolmentStatus = z.infer<typeof enrolmentStatusSchema>;
export const enrolmentStatusResponseSchema = envelope(enrolmentStatusSchema);

export const enrolmentCodeSchema = z.object({
  /** Shown once: XXXXX-XXXXX. */
  code: z.string(),
  expiresAt: z.string(),
  /** The same code as a QR code (SVG markup) for the machine's camera. */
  qrSvg: z.string(),
});
export type EnrolmentCode = z.infer<typeof enrolmentCodeSchema>;
export const enrolmentCodeResponseSchema = envelope(enrolmentCodeSchema);

export const assignedMachineSchema = z.object({
  deviceId: z.string(),
  machineNumber: z.string(),
  serialNumber: z.string(),
  assignedAt: z.string().nullable(),
});
export const assignedMachinesResponseSchema = envelope(
  z.object({ machines: z.array(assignedMachineSchema) }),
);
export const assignMachinesBodySchema = strictObject({
  deviceIds: z
    .array(z.uuid({ error: 'deviceIds must be a UUID' }), { error: 'deviceIds must be a list' })
    .max(500, 'deviceIds must hold at most 500 ids'),
});
export type AssignMachinesBody = z.infer<typeof assignMachinesBodySchema>;
