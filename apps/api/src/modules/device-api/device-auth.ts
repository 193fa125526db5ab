import { hash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, sql, type SQL } from 'drizzle-orm';
import { deviceApiMessages, type AppUser } from '@app/contract/device-api';
import type { Db } from '#api/db/client.ts';
import { appSessions, deviceCredentials } from '#api/db/schema/device-api.ts';
import { devices, doctors, technicians } from '#api/db/schema/devices.ts';
import { roles, users } from '#api/db/schema/users.ts';
import { TooManyRequestsError, UnauthorizedError } from '#api/lib/errors.ts';
import type { RedisLink } from '#api/lib/redis-link.ts';
import type { AppUserContext, DeviceContext } from '#api/lib/request-context.ts';
import { createCredentialCache } from './credential-cache.ts';
import {
  createDeviceRateLimit,
  createSharedDeviceRateLimit,
  type DeviceRateLimit,
} from './device-rate-limit.ts';
import { noteRevokedCall } from './revoked-calls.ts';

// Defined beside the request they decorate (lib/ never imports a module); named here too for the device API.
export type { AppUserContext, DeviceContext } from '#api/lib/request-context.ts';

/** SHA-256 of a 256-bit random secret: enough to find it, useless to an attacker holding the table. */
export const digest = (secret: string) => hash('sha256', secret, 'hex');

/** A new secret with a readable prefix naming what it is (dvc_ credential, aps_ access, apr_ refresh). */
export const newSecret = (prefix: 'dvc' | 'aps' | 'apr') =>
  `${prefix}_${randomBytes(32).toString('base64url')}`;

const secretShape = /^(dvc|aps|apr)_[A-Za-z0-9_-]{43}$/;

/** The database channel that announces a change to a machine's credential (migration 0019). */
export const deviceAuthChannel = 'device_auth_changed';

/**
 * Authentication of the machines' routes: a credential known good is answered from memory, any
 * other is one indexed lookup (decision 038); a session where a person acts is one more lookup,
 * never cached. The cache is sound only while fed by `cacheFeed` (the database's notices), and
 * this instance's own revocations clear it at once through `forgetDevice`.
 *
 * Credentials that are not known good are counted per client address before their lookup (issue
 * 32; docs/device-api.md, "Rate limits"): a budget of `failuresPerMinute` (ANON_RATE_PER_MINUTE,
 * the anonymous limit of decision 029) refused credentials, all at once or refilled evenly over the
 * minute. A credential that proves good gives its count back, so only refusals use the budget; an
 * address that has used it gets a 429 with Retry-After, before any database work, for every
 * credential not already known good. A machine whose credential is known good (every enrolled
 * machine after its first call on this instance) is never held up by another's refusals behind the
 * same address (a clinic's NAT).
 */
export function createDeviceAuth({
  db,
  now,
  failuresPerMinute = 60,
  redis = null,
  redisPrefix = '',
}: {
  db: Db;
  now: () => Date;
  failuresPerMinute?: number;
  /** With REDIS_URL the budget is counted there, across API instances (decision 073). */
  redis?: RedisLink | null;
  redisPrefix?: string;
}) {
  const cache = createCredentialCache<DeviceContext>();
  const budget = {
    perMinute: failuresPerMinute,
    burst: failuresPerMinute,
    now: () => now().getTime(),
    // As many addresses as the anonymous limiter tracks; past it the oldest start afresh.
    maxBuckets: 10_000,
  };
  const refusals: DeviceRateLimit = redis
    ? createSharedDeviceRateLimit({ ...budget, redis, prefix: redisPrefix, name: 'limit:device-credential' })
    : createDeviceRateLimit(budget);
  return {
    cacheFeed: {
      onPayload: (deviceId: string) => cache.forgetDevice(deviceId),
      onLive: (live: boolean) => cache.setLive(live),
    },
    forgetDevice: (deviceId: string) => cache.forgetDevice(deviceId),

    /**
     * `address` is the client's (as lib/anonymous-rate-limit.ts counts it): without one (the public
     * update check, which the anonymous limit already bounds per address) nothing is counted here.
     */
    async authenticateDevice(credential: string, address?: string): Promise<DeviceContext> {
      const hash = secretShape.test(credential) && credential.startsWith('dvc_') ? digest(credential) : null;
      const known = hash === null ? undefined : cache.get(hash);
      if (known) return known;
      if (address !== undefined) {
        const wait = await refusals.take(address);
        if (wait > 0) throw new TooManyRequestsError(deviceApiMessages.credentialsThrottled, wait);
      }
      if (hash === null) throw new UnauthorizedError(deviceApiMessages.credentialInvalid);
      const readAt = cache.generation();
      let row: DeviceContext | undefined;
      try {
        [row] = await db
          .select({
            deviceId: devices.id,
            machineNumber: devices.machineNumber,
            serialNumber: devices.serialNumber,
            credentialId: deviceCredentials.id,
          })
          .from(deviceCredentials)
          .innerJoin(devices, eq(devices.id, deviceCredentials.deviceId))
          .where(and(eq(deviceCredentials.secretHash, hash), isNull(deviceCredentials.revokedAt)))
          .limit(1);
      } catch (error) {
        // No answer is no refusal: a database that failed is not held against the address.
        if (address !== undefined) await refusals.give(address);
        throw error;
      }
      if (!row) {
        // Not worth a different answer if this write fails: the 401 stands, the alarm waits a call.
        await noteRevokedCall(db, hash, now()).catch(() => {});
        throw new UnauthorizedError(deviceApiMessages.credentialInvalid);
      }
      if (address !== undefined) await refusals.give(address);
      cache.set(hash, row, readAt);
      return row;
    },

    /** The session must be live, of this machine's live credential, and its person still on the machine. */
    async authenticateSession(token: string, device: DeviceContext): Promise<AppUserContext> {
      if (!secretShape.test(token) || !token.startsWith('aps_'))
        throw new UnauthorizedError(deviceApiMessages.sessionInvalid);
      const person = await sessionPerson(
        db,
        and(
          eq(appSessions.accessHash, digest(token)),
          eq(appSessions.deviceId, device.deviceId),
          eq(appSessions.credentialId, device.credentialId),
          isNull(appSessions.revokedAt),
          gt(appSessions.accessExpiresAt, now()),
        )!,
      );
      if (!person) throw new UnauthorizedError(deviceApiMessages.sessionInvalid);
      return person;
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

/**
 * The doctor or technician of the session `where` names, while they may still act on the machine:
 * an active doctor, or an active technician whose console account still has a role of type app
 * (the rule sign-in applies). One query; every authenticated call and every refresh go through it,
 * so a person removed, switched off or moved to another role loses the session the same way.
 */
export async function sessionPerson(db: Db, where: SQL): Promise<AppUserContext | null> {
  const [row] = await db
    .select({
      sessionId: appSessions.id,
      doctorId: doctors.id,
      doctorUserId: doctors.userId,
      doctorName: doctors.userName,
      doctorEmail: doctors.email,
      doctorActive: sql<boolean>`${doctors.status} = 2`,
      technicianId: technicians.id,
      technicianUserId: technicians.userId,
      technicianName: users.userName,
      technicianEmail: users.email,
      technicianActive: sql<boolean>`${technicians.status} = 2 and ${roles.type} = 'app'`,
    })
    .from(appSessions)
    .leftJoin(doctors, eq(doctors.id, appSessions.doctorId))
    .leftJoin(technicians, eq(technicians.id, appSessions.technicianId))
    .leftJoin(users, eq(users.id, technicians.accountId))
    .leftJoin(roles, eq(roles.id, users.roleId))
    .where(where)
    .limit(1);
  if (row?.doctorId && row.doctorActive)
    return {
      sessionId: row.sessionId,
      kind: 'doctor',
      id: row.doctorId,
      userId: row.doctorUserId!,
      userName: row.doctorName!,
      email: row.doctorEmail!,
    };
  if (row?.technicianId && row.technicianActive)
    return {
      sessionId: row.sessionId,
      kind: 'technician',
      id: row.technicianId,
      userId: row.technicianUserId!,
      userName: row.technicianName!,
      email: row.technicianEmail!,
    };
  return null;
}

/** The person as the app sees them (appUserSchema). */
export const toAppUser = (person: AppUserContext): AppUser => ({
  kind: person.kind,
  _id: person.id,
  userId: person.userId,
  userName: person.userName,
});
