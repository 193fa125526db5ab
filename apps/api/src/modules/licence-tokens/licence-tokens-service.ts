import { eq, sql } from 'drizzle-orm';
import { licenceLocks, licenceMessages, type LicenceClaims } from '@app/contract/licences';
import type { LicencesConfig } from '#api/config-licences.ts';
import type { Db } from '#api/db/client.ts';
import { devices } from '#api/db/schema/devices.ts';
import { NotFoundError } from '#api/lib/errors.ts';
import type { LicenceKeys } from './licence-keys.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * A machine's signed licence (docs/device-api.md, "Licence"): its licence as the server holds it
 * (devices.licence_*), for that machine only (`sub` is its serial number), valid offline for
 * LICENCE_OFFLINE_DAYS from the moment it is issued.
 */
export function createLicenceTokens({
  db,
  keys,
  now,
  issuer,
  config,
}: {
  db: Db;
  keys: LicenceKeys;
  now: () => Date;
  /** The server's public address (PUBLIC_URL): the app checks it. */
  issuer: string;
  config: Pick<LicencesConfig, 'enforcement' | 'offlineDays'>;
}) {
  const validSeconds = Math.max(1, Math.round(config.offlineDays * 86_400));
  const lookup = db
    .select({
      serialNumber: devices.serialNumber,
      state: devices.licenceState,
      paidThrough: devices.licencePaidThrough,
      graceUntil: devices.licenceGraceUntil,
      version: devices.licenceVersion,
    })
    .from(devices)
    .where(eq(devices.id, sql.placeholder('deviceId')))
    .limit(1)
    .prepare('licence_token_device');

  return {
    /** The licence of the machine whose credential called: no other machine's can be asked for. */
    async forDevice(deviceId: string): Promise<{ token: string; version: number; expiresAt: string }> {
      const [row] = await lookup.execute({ deviceId });
      if (!row) throw new NotFoundError(licenceMessages.notFound);
      const iat = Math.floor(now().getTime() / 1000);
      const claims: LicenceClaims = {
        iss: issuer,
        sub: row.serialNumber,
        deviceId,
        state: row.state,
        locked: licenceLocks(row.state, config.enforcement),
        enforcement: config.enforcement,
        paidThrough: iso(row.paidThrough),
        graceUntil: iso(row.graceUntil),
        ver: row.version,
        iat,
        exp: iat + validSeconds,
      };
      return {
        token: await keys.sign(claims),
        version: row.version,
        expiresAt: new Date(claims.exp * 1000).toISOString(),
      };
    },
  };
}
export type LicenceTokens = ReturnType<typeof createLicenceTokens>;
