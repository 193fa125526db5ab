import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { deviceApiMessages, type AppUserKind } from '@app/contract/device-api';
import type { Db } from '../../db/client.ts';
import { appSessions, deviceCredentials } from '../../db/schema/device-api.ts';
import { devices, doctors, technicians } from '../../db/schema/devices.ts';
import { UnauthorizedError } from '../../lib/errors.ts';

/** The enrolled machine behind a device call. */
export type DeviceContext = {
  deviceId: string;
  machineNumber: string;
  serialNumber: string;
  credentialId: string;
};

/** A doctor or technician signed in on that machine. */
export type AppUserContext = {
  sessionId: string;
  kind: AppUserKind;
  /** doctors.id or technicians.id */
  id: string;
  /** The numeric id the console shows and the logs carry. */
  userId: number;
  userName: string;
  email: string;
};

/** SHA-256 of a 256-bit random secret: enough to find it, useless to an attacker holding the table. */
export const digest = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** A new secret with a readable prefix naming what it is (dvc_ credential, aps_ access, apr_ refresh). */
export const newSecret = (prefix: 'dvc' | 'aps' | 'apr') =>
  `${prefix}_${randomBytes(32).toString('base64url')}`;

const secretShape = /^(dvc|aps|apr)_[A-Za-z0-9_-]{43}$/;

/**
 * Authentication of the machines' routes: one indexed lookup per call for the credential (and one
 * for the session where a person acts). Revocation is immediate because nothing is cached.
 */
export function createDeviceAuth({ db, now }: { db: Db; now: () => Date }) {
  return {
    async authenticateDevice(credential: string): Promise<DeviceContext> {
      if (!secretShape.test(credential) || !credential.startsWith('dvc_'))
        throw new UnauthorizedError(deviceApiMessages.credentialInvalid);
      const [row] = await db
        .select({
          deviceId: devices.id,
          machineNumber: devices.machineNumber,
          serialNumber: devices.serialNumber,
          credentialId: deviceCredentials.id,
        })
        .from(deviceCredentials)
        .innerJoin(devices, eq(devices.id, deviceCredentials.deviceId))
        .where(and(eq(deviceCredentials.secretHash, digest(credential)), isNull(deviceCredentials.revokedAt)))
        .limit(1);
      if (!row) throw new UnauthorizedError(deviceApiMessages.credentialInvalid);
      return row;
    },

    /** The session must be live, of this machine's live credential, and its person still on the machine. */
    async authenticateSession(token: string, device: DeviceContext): Promise<AppUserContext> {
      if (!secretShape.test(token) || !token.startsWith('aps_'))
        throw new UnauthorizedError(deviceApiMessages.sessionInvalid);
      const [row] = await db
        .select({
          sessionId: appSessions.id,
          doctorId: doctors.id,
          doctorUserId: doctors.userId,
          doctorName: doctors.userName,
          doctorEmail: doctors.email,
          doctorStatus: doctors.status,
          technicianId: technicians.id,
          technicianUserId: technicians.userId,
          technicianName: technicians.userName,
          technicianEmail: technicians.email,
          technicianStatus: technicians.status,
        })
        .from(appSessions)
        .leftJoin(doctors, eq(doctors.id, appSessions.doctorId))
        .leftJoin(technicians, eq(technicians.id, appSessions.technicianId))
        .where(
          and(
            eq(appSessions.accessHash, digest(token)),
            eq(appSessions.deviceId, device.deviceId),
            eq(appSessions.credentialId, device.credentialId),
            isNull(appSessions.revokedAt),
            gt(appSessions.accessExpiresAt, now()),
          ),
        )
        .limit(1);
      if (!row) throw new UnauthorizedError(deviceApiMessages.sessionInvalid);
      if (row.doctorId !== null && row.doctorStatus === 2)
        return {
          sessionId: row.sessionId,
          kind: 'doctor',
          id: row.doctorId,
          userId: row.doctorUserId!,
          userName: row.doctorName!,
          email: row.doctorEmail!,
        };
      if (row.technicianId !== null && row.technicianStatus === 2)
        return {
          sessionId: row.sessionId,
          kind: 'technician',
          id: row.technicianId,
          userId: row.technicianUserId!,
          userName: row.technicianName!,
          email: row.technicianEmail!,
        };
      // The person was removed from the machine or switched off: the session is over.
      throw new UnauthorizedError(deviceApiMessages.sessionInvalid);
    },

    /** Ends every app session of a machine (its credential was revoked). */
    async revokeSessionsOfDevice(deviceId: string) {
      await db
        .update(appSessions)
        .set({ revokedAt: now() })
        .where(and(eq(appSessions.deviceId, deviceId), isNull(appSessions.revokedAt)));
    },
  };
}
export type DeviceAuth = ReturnType<typeof createDeviceAuth>;
