import { licenceLocks, licenceMessages, type LicenceClaims } from '@app/contract/licences';
import type { LicencesConfig } from '#api/config-licences.ts';
import { NotFoundError } from '#api/lib/errors.ts';
import type { LicenceVersions } from '#api/modules/device-api/licence-versions.ts';
import type { SettingsVersions } from '#api/modules/device-api/settings-versions.ts';
import type { LicenceKeys } from './licence-keys.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * A machine's signed licence (docs/device-api.md, "Licence"): its licence as the server holds it
 * (devices.licence_*), for that machine only (`sub` is its serial number), valid offline from the
 * moment it is issued for the machine's licenceOfflineDays setting (decision 079), at most
 * LICENCE_OFFLINE_DAYS. The row comes from the licence cache the heartbeat reads too, and the
 * setting from the settings cache the heartbeat answers from (both fed by the database's notices),
 * so a fetch reads the database only when the licence or the settings changed; each answer is
 * signed afresh, with its own issue time.
 */
export function createLicenceTokens({
  licences,
  settings,
  keys,
  now,
  issuer,
  config,
}: {
  licences: Pick<LicenceVersions, 'licence'>;
  settings: Pick<SettingsVersions, 'peek' | 'get'>;
  keys: LicenceKeys;
  now: () => Date;
  /** The server's public address (PUBLIC_URL): the app checks it. */
  issuer: string;
  config: Pick<LicencesConfig, 'enforcement' | 'offlineDays'>;
}) {
  /** The machine's setting, never above LICENCE_OFFLINE_DAYS (retired keys are published that long). */
  const validSeconds = (days: number | null) =>
    Math.max(1, Math.round(Math.min(days ?? config.offlineDays, config.offlineDays) * 86_400));

  return {
    /** The licence of the machine whose credential called: no other machine's can be asked for. */
    async forDevice(deviceId: string): Promise<{ token: string; version: number; expiresAt: string }> {
      const row = await licences.licence(deviceId);
      if (!row) throw new NotFoundError(licenceMessages.notFound);
      const { licenceOfflineDays } = settings.peek(deviceId) ?? (await settings.get(deviceId));
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
        exp: iat + validSeconds(licenceOfflineDays),
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
