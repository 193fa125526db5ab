import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import QRCode from 'qrcode';
import type { EnrolResult } from '@app/contract/device-api';
import type { EnrolmentCode, EnrolmentStatus } from '@app/contract/device-enrolment';
import { deviceApiMessages } from '@app/contract/device-api';
import { deviceMessages } from '@app/contract/devices';
import type { Db } from '#api/db/client.ts';
import { appSessions, deviceCredentials, enrolmentCodes } from '#api/db/schema/device-api.ts';
import { devices } from '#api/db/schema/devices.ts';
import { createAttemptLimiter } from '#api/lib/attempt-limiter.ts';
import { BadRequestError, ConflictError, NotFoundError, TooManyRequestsError } from '#api/lib/errors.ts';
import type { ThrottleStore } from '#api/lib/throttle-store.ts';
import { digest, newSecret } from './device-auth.ts';
import { enrolmentCodeHash, newEnrolmentCode, normaliseEnrolmentCode } from './enrolment-codes.ts';

const codeLifetimeMs = 24 * 60 * 60_000;

/** Wrong codes from one address: 20 per 15 minutes, against a 50-bit code that lives a day. */
export const enrolThrottlePolicy = { max: 20, windowMs: 15 * 60_000 } as const;

type Deps = {
  db: Db;
  secret: string;
  now: () => Date;
  throttleStore?: ThrottleStore;
  /** After a credential is revoked or replaced: this instance forgets it at once (decision 038). */
  onCredentialChange?: (deviceId: string) => void;
};

/**
 * Enrolment: the console issues a one-time code for a device; the machine trades it for its
 * credential. One live code and one live credential per device; a new enrolment revokes the
 * previous credential and every app session on it.
 */
export function createEnrolmentService({ db, secret, now, throttleStore, onCredentialChange }: Deps) {
  const byAddress = createAttemptLimiter({
    name: 'enrol-ip',
    ...enrolThrottlePolicy,
    now: () => now().getTime(),
    store: throttleStore,
  });

  async function deviceOf(id: string) {
    const [device] = await db
      .select({
        id: devices.id,
        machineNumber: devices.machineNumber,
        serialNumber: devices.serialNumber,
      })
      .from(devices)
      .where(eq(devices.id, id))
      .limit(1);
    if (!device) throw new NotFoundError(deviceMessages.notFound);
    return device;
  }

  return {
    deviceOf,

    async status(deviceId: string): Promise<EnrolmentStatus> {
      await deviceOf(deviceId); // 404 for an unknown device
      const [credential] = await db
        .select({ createdAt: deviceCredentials.createdAt, revokedAt: deviceCredentials.revokedAt })
        .from(deviceCredentials)
        .where(eq(deviceCredentials.deviceId, deviceId))
        .orderBy(desc(deviceCredentials.createdAt))
        .limit(1);
      const [code] = await db
        .select({ expiresAt: enrolmentCodes.expiresAt })
        .from(enrolmentCodes)
        .where(liveCode(deviceId, now()))
        .orderBy(desc(enrolmentCodes.createdAt))
        .limit(1);
      const live = credential !== undefined && credential.revokedAt === null;
      return {
        enrolled: live,
        enrolledAt: live ? credential.createdAt.toISOString() : null,
        revokedAt: !live && credential ? credential.revokedAt!.toISOString() : null,
        pendingCodeExpiresAt: code ? code.expiresAt.toISOString() : null,
      };
    },

    /** A new code; older unused ones are voided. The live credential stays until the code is used. */
    async issueCode(
      deviceId: string,
      issuedBy: string | null,
    ): Promise<EnrolmentCode & { machineNumber: string }> {
      const device = await deviceOf(deviceId);
      const code = newEnrolmentCode();
      const at = now();
      const expiresAt = new Date(at.getTime() + codeLifetimeMs);
      await db.transaction(async (tx) => {
        await tx.update(enrolmentCodes).set({ voidedAt: at }).where(liveCode(deviceId, at));
        await tx.insert(enrolmentCodes).values({
          deviceId,
          codeHash: enrolmentCodeHash(secret, normaliseEnrolmentCode(code)!),
          createdAt: at,
          createdBy: issuedBy,
          expiresAt,
        });
      });
      const qrSvg = await QRCode.toString(code, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
      return { code, expiresAt: expiresAt.toISOString(), qrSvg, machineNumber: device.machineNumber };
    },

    /** Revokes the live credential and its sessions, and voids a waiting code. */
    async revoke(deviceId: string): Promise<{ machineNumber: string }> {
      const device = await deviceOf(deviceId);
      const at = now();
      const changed = await db.transaction(async (tx) => {
        const creds = await tx
          .update(deviceCredentials)
          .set({ revokedAt: at })
          .where(and(eq(deviceCredentials.deviceId, deviceId), isNull(deviceCredentials.revokedAt)))
          .returning({ id: deviceCredentials.id });
        const codes = await tx
          .update(enrolmentCodes)
          .set({ voidedAt: at })
          .where(liveCode(deviceId, at))
          .returning({ id: enrolmentCodes.id });
        await tx
          .update(appSessions)
          .set({ revokedAt: at })
          .where(and(eq(appSessions.deviceId, deviceId), isNull(appSessions.revokedAt)));
        return creds.length + codes.length;
      });
      onCredentialChange?.(deviceId);
      if (changed === 0) throw new ConflictError(deviceApiMessages.notEnrolled);
      return { machineNumber: device.machineNumber };
    },

    /**
     * The machine's side. Every refusal is the same 400 (wrong, used, voided, expired or malformed
     * code), so a guess learns nothing; wrong guesses are counted per address before the lookup.
     */
    async enrol(typed: string, ip: string): Promise<EnrolResult> {
      const held = await byAddress.reserve(ip);
      if (held.wait > 0) throw new TooManyRequestsError(deviceApiMessages.codeInvalid, held.wait);
      const canonical = normaliseEnrolmentCode(typed);
      const at = now();
      const credential = newSecret('dvc');
      const result = canonical
        ? await db.transaction(async (tx) => {
            // Marking it used in the lookup itself: two machines racing with one code, one wins.
            const [code] = await tx
              .update(enrolmentCodes)
              .set({ usedAt: at })
              .where(
                and(
                  eq(enrolmentCodes.codeHash, enrolmentCodeHash(secret, canonical)),
                  isNull(enrolmentCodes.usedAt),
                  isNull(enrolmentCodes.voidedAt),
                  gt(enrolmentCodes.expiresAt, at),
                ),
              )
              .returning({ deviceId: enrolmentCodes.deviceId });
            if (!code) return null;
            await tx
              .update(deviceCredentials)
              .set({ revokedAt: at })
              .where(and(eq(deviceCredentials.deviceId, code.deviceId), isNull(deviceCredentials.revokedAt)));
            await tx
              .update(appSessions)
              .set({ revokedAt: at })
              .where(and(eq(appSessions.deviceId, code.deviceId), isNull(appSessions.revokedAt)));
            await tx
              .insert(deviceCredentials)
              .values({ deviceId: code.deviceId, secretHash: digest(credential), createdAt: at });
            const [device] = await tx
              .select({ machineNumber: devices.machineNumber, serialNumber: devices.serialNumber })
              .from(devices)
              .where(eq(devices.id, code.deviceId));
            return { deviceId: code.deviceId, ...device! };
          })
        : null;
      if (!result) throw new BadRequestError(deviceApiMessages.codeInvalid);
      onCredentialChange?.(result.deviceId);
      await held.refund();
      return { ...result, credential };
    },
  };
}
export type EnrolmentService = ReturnType<typeof createEnrolmentService>;

/** A code of this device not used, not voided and not expired. */
const liveCode = (deviceId: string, at: Date) =>
  and(
    eq(enrolmentCodes.deviceId, deviceId),
    isNull(enrolmentCodes.usedAt),
    isNull(enrolmentCodes.voidedAt),
    gt(enrolmentCodes.expiresAt, at),
  );
