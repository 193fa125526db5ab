import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { AppSession, AppUser, AppUserKind } from '@app/contract/device-api';
import { deviceApiMessages } from '@app/contract/device-api';
import type { Db } from '#api/db/client.ts';
import { appSessions } from '#api/db/schema/device-api.ts';
import { deviceUserNames, doctors, technicians } from '#api/db/schema/devices.ts';
import { roles, users } from '#api/db/schema/users.ts';
import { createAttemptLimiter } from '#api/lib/attempt-limiter.ts';
import { TooManyRequestsError, UnauthorizedError } from '#api/lib/errors.ts';
import { burnPasswordCheck, verifyPassword } from '#api/lib/passwords.ts';
import type { ThrottleStore } from '#api/lib/throttle-store.ts';
import type { AppUserContext, DeviceContext } from './device-auth.ts';
import { digest, newSecret, sessionPerson, toAppUser } from './device-auth.ts';

/** Lifetimes (docs/decisions/022): a short access token, a refresh token that slides with use. */
export const appSessionPolicy = {
  accessSeconds: 15 * 60,
  refreshSeconds: 30 * 24 * 60 * 60,
  /** Wrong passwords for one user name on one machine: 5 per 15 minutes. */
  wrongTries: { max: 5, windowMs: 15 * 60_000 },
} as const;

/** The person a sign-in found, before the password is checked. */
type Candidate = {
  kind: AppUserKind;
  id: string;
  userId: number;
  userName: string;
  email: string;
  passwordHash: string;
};

type Deps = { db: Db; now: () => Date; throttleStore?: ThrottleStore };

/**
 * Doctors and technicians signing in on a machine. A doctor is a doctors row of this machine with
 * a password (registered by a technician through the app); a technician is a console user of an
 * app role assigned to this machine (a technicians row naming the account). Both are found through
 * the machine's sign-in names (device_user_names), where a name belongs to one person only.
 */
export function createAppSessionsService({ db, now, throttleStore }: Deps) {
  const wrongTries = createAttemptLimiter({
    name: 'app-login',
    ...appSessionPolicy.wrongTries,
    now: () => now().getTime(),
    store: throttleStore,
  });

  /**
   * The one person of this machine with this user name (device_user_names holds one per name, so
   * sign-in never has to choose between a doctor and a technician), while they may sign in: an
   * active doctor with a password, or an active technician whose account has a role of type app.
   */
  async function findPerson(deviceId: string, userName: string): Promise<Candidate | null> {
    const [row] = await db
      .select({
        doctorId: doctors.id,
        doctorUserId: doctors.userId,
        doctorName: doctors.userName,
        doctorEmail: doctors.email,
        doctorHash: doctors.passwordHash,
        doctorActive: sql<boolean>`${doctors.status} = 2`,
        technicianId: technicians.id,
        technicianUserId: technicians.userId,
        technicianName: users.userName,
        technicianEmail: users.email,
        technicianHash: users.passwordHash,
        technicianActive: sql<boolean>`${technicians.status} = 2 and ${roles.type} = 'app'`,
      })
      .from(deviceUserNames)
      .leftJoin(doctors, eq(doctors.id, deviceUserNames.doctorId))
      .leftJoin(technicians, eq(technicians.id, deviceUserNames.technicianId))
      .leftJoin(users, eq(users.id, technicians.accountId))
      .leftJoin(roles, eq(roles.id, users.roleId))
      // lower() on both sides in the database: the key was made by the same function.
      .where(
        and(eq(deviceUserNames.deviceId, deviceId), sql`${deviceUserNames.nameKey} = lower(${userName})`),
      )
      .limit(1);
    if (row?.doctorId && row.doctorActive && row.doctorHash)
      return {
        kind: 'doctor',
        id: row.doctorId,
        userId: row.doctorUserId!,
        userName: row.doctorName!,
        email: row.doctorEmail!,
        passwordHash: row.doctorHash,
      };
    if (row?.technicianId && row.technicianActive && row.technicianHash)
      return {
        kind: 'technician',
        id: row.technicianId,
        userId: row.technicianUserId!,
        userName: row.technicianName!,
        email: row.technicianEmail!,
        passwordHash: row.technicianHash,
      };
    return null;
  }

  /** Fresh token pair: the caller stores the digests, the client gets the secrets once. */
  const tokens = () => {
    const at = now().getTime();
    const accessToken = newSecret('aps');
    const refreshToken = newSecret('apr');
    return {
      accessToken,
      refreshToken,
      row: {
        accessHash: digest(accessToken),
        accessExpiresAt: new Date(at + appSessionPolicy.accessSeconds * 1000),
        refreshHash: digest(refreshToken),
        refreshExpiresAt: new Date(at + appSessionPolicy.refreshSeconds * 1000),
      },
    };
  };

  const answer = (t: ReturnType<typeof tokens>, user: AppUser): AppSession => ({
    accessToken: t.accessToken,
    accessExpiresIn: appSessionPolicy.accessSeconds,
    refreshToken: t.refreshToken,
    refreshExpiresIn: appSessionPolicy.refreshSeconds,
    user,
  });

  return {
    /**
     * Wrong tries are counted per machine and user name before the password is checked (an
     * unknown name costs the same argon2 run); `onSubject` learns whom the attempt was about.
     */
    async login(
      device: DeviceContext,
      input: { username: string; password: string },
      onSubject?: (who: { userId: string; email: string }) => void,
    ): Promise<AppSession> {
      const key = `${device.deviceId}\n${input.username.toLowerCase()}`;
      const held = await wrongTries.reserve(key);
      if (held.wait > 0) throw new TooManyRequestsError(deviceApiMessages.wrongCredentials, held.wait);
      const person = await findPerson(device.deviceId, input.username);
      if (!person) {
        await burnPasswordCheck(input.password);
        throw new UnauthorizedError(deviceApiMessages.wrongCredentials);
      }
      onSubject?.({ userId: String(person.userId), email: person.email });
      if (!(await verifyPassword(person.passwordHash, input.password)))
        throw new UnauthorizedError(deviceApiMessages.wrongCredentials);
      await Promise.all([held.refund(), wrongTries.reset(key)]);
      const t = tokens();
      await db.insert(appSessions).values({
        deviceId: device.deviceId,
        credentialId: device.credentialId,
        doctorId: person.kind === 'doctor' ? person.id : null,
        technicianId: person.kind === 'technician' ? person.id : null,
        createdAt: now(),
        ...t.row,
      });
      return answer(t, {
        kind: person.kind,
        _id: person.id,
        userId: person.userId,
        userName: person.userName,
      });
    },

    /**
     * Trades a refresh token for a new pair. The swap is one conditional UPDATE on the old digest,
     * so a token replayed (or raced) after use finds nothing. Only this machine's live credential
     * may use it, and only while the person is still active on the machine.
     */
    async refresh(device: DeviceContext, refreshToken: string): Promise<AppSession> {
      const at = now();
      const t = tokens();
      const [row] = await db
        .update(appSessions)
        .set(t.row)
        .where(
          and(
            eq(appSessions.refreshHash, digest(refreshToken)),
            eq(appSessions.deviceId, device.deviceId),
            eq(appSessions.credentialId, device.credentialId),
            isNull(appSessions.revokedAt),
            gt(appSessions.refreshExpiresAt, at),
          ),
        )
        .returning({ id: appSessions.id });
      if (!row) throw new UnauthorizedError(deviceApiMessages.refreshInvalid);
      const person = await sessionPerson(db, eq(appSessions.id, row.id));
      if (!person) {
        await db.update(appSessions).set({ revokedAt: at }).where(eq(appSessions.id, row.id));
        throw new UnauthorizedError(deviceApiMessages.refreshInvalid);
      }
      return answer(t, toAppUser(person));
    },

    async logout(sessionId: string) {
      await db
        .update(appSessions)
        .set({ revokedAt: now() })
        .where(and(eq(appSessions.id, sessionId), isNull(appSessions.revokedAt)));
    },

    me: (user: AppUserContext, device: DeviceContext) => ({
      user: toAppUser(user),
      device: {
        deviceId: device.deviceId,
        machineNumber: device.machineNumber,
        serialNumber: device.serialNumber,
      },
    }),
  };
}
export type AppSessionsService = ReturnType<typeof createAppSessionsService>;
