import { count, desc, eq } from 'drizzle-orm';
import { deviceMessages, type DeviceAppVersionList } from '@app/contract/devices';
import type { Db } from '#api/db/client.ts';
import { deviceAppVersions } from '#api/db/schema/device-app-versions.ts';
import { devices } from '#api/db/schema/devices.ts';
import { NotFoundError } from '#api/lib/errors.ts';
import { offsetOf, pageCount } from '#api/lib/pagination.ts';

/**
 * A machine's app version history for Device Details: the changes its heartbeats reported, newest
 * first (the rows come from a trigger on devices, see the device_app_versions migration). One
 * machine has few, so an exact count through its index is cheap.
 */
export function createDeviceAppVersionsService({ db }: { db: Db }) {
  return {
    async list(
      deviceId: string,
      { page, limit }: { page: number; limit: number },
    ): Promise<DeviceAppVersionList> {
      const [device] = await db
        .select({ id: devices.id })
        .from(devices)
        .where(eq(devices.id, deviceId))
        .limit(1);
      if (!device) throw new NotFoundError(deviceMessages.notFound);
      const ofDevice = eq(deviceAppVersions.deviceId, deviceId);
      const [rows, [{ total } = { total: 0 }]] = await Promise.all([
        db
          .select({
            versionCode: deviceAppVersions.versionCode,
            versionName: deviceAppVersions.versionName,
            firstSeenAt: deviceAppVersions.firstSeenAt,
          })
          .from(deviceAppVersions)
          .where(ofDevice)
          .orderBy(desc(deviceAppVersions.firstSeenAt), desc(deviceAppVersions.id))
          .limit(limit)
          .offset(offsetOf(page, limit)),
        db.select({ total: count() }).from(deviceAppVersions).where(ofDevice),
      ]);
      const versions = rows.map((r) => ({ ...r, firstSeenAt: r.firstSeenAt.toISOString() }));
      return { versions, totalPages: pageCount(total, limit), total, page, limit };
    },
  };
}

export type DeviceAppVersionsService = ReturnType<typeof createDeviceAppVersionsService>;
