import { count, inArray } from 'drizzle-orm';
import type { Db } from '#api/db/client.ts';
import { appVersionSortKey, devices } from '#api/db/schema/devices.ts';

/**
 * How many machines last reported each of these versionCodes (devices.app_version_code, written
 * by the heartbeats): one grouped query for a whole page of releases. It filters on the App
 * Version column's sort key so the index built on exactly that key serves it.
 */
export async function devicesRunning(db: Db, versionCodes: number[]): Promise<Map<number, number>> {
  const codes = [...new Set(versionCodes)];
  if (codes.length === 0) return new Map();
  const rows = await db
    .select({ versionCode: devices.appVersionCode, devices: count() })
    .from(devices)
    .where(inArray(appVersionSortKey(devices), codes))
    .groupBy(devices.appVersionCode);
  return new Map(rows.map((r) => [r.versionCode!, r.devices]));
}
