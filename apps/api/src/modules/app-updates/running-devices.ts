import { and, count, inArray } from 'drizzle-orm';
import type { Db } from '#api/db/client.ts';
import { appVersionSortKey, devices } from '#api/db/schema/devices.ts';

/** The key of one release in devicesRunning's answer: its app and versionCode. */
export const runningKey = (r: { appName: string; versionCode: number }) => `${r.appName}\n${r.versionCode}`;

/**
 * How many machines last reported each of these releases (devices.app_package and
 * app_version_code, written by the heartbeats): the same versionCode of another app is another
 * release (issue 35 item 2). One grouped query for a whole page of releases; it filters on the App
 * Version column's sort key so the index built on exactly that key serves it.
 */
export async function devicesRunning(
  db: Db,
  releases: { appName: string; versionCode: number }[],
): Promise<Map<string, number>> {
  const codes = [...new Set(releases.map((r) => r.versionCode))];
  const apps = [...new Set(releases.map((r) => r.appName))];
  if (codes.length === 0) return new Map();
  const rows = await db
    .select({ appName: devices.appPackage, versionCode: devices.appVersionCode, devices: count() })
    .from(devices)
    .where(and(inArray(appVersionSortKey(devices), codes), inArray(devices.appPackage, apps)))
    .groupBy(devices.appPackage, devices.appVersionCode);
  return new Map(
    rows.map((r) => [runningKey({ appName: r.appName!, versionCode: r.versionCode! }), r.devices]),
  );
}
