import { eq } from 'drizzle-orm';
import type { Db } from '#api/db/client.ts';
import { devices } from '#api/db/schema/devices.ts';

/** The database channel that announces '<device id>:<version>' when a licence changes (migration 0036). */
export const licenceChangedChannel = 'licence_changed';

/**
 * Each machine's licence version (devices.licence_version) for the heartbeat's answer, from memory:
 * the heartbeat stays free of database reads (decision 038), and the app still learns of a new
 * licence on its next heartbeat. Sound only while fed by the database's notices of every change,
 * like the credential cache: while the feed is not live it holds nothing and every heartbeat reads
 * the row.
 *
 * A version only grows, so what is kept is the highest seen: a read that raced a change and
 * returns the older version can never put it over the newer one a notice brought. Only a read that
 * began before the feed went down and came back is dropped (notices of that gap are lost), by a
 * generation count.
 */
export function createLicenceVersions({
  db,
  ttlMs = 15 * 60_000,
  maxEntries = 100_000,
  now = Date.now,
}: {
  db: Db;
  ttlMs?: number;
  maxEntries?: number;
  now?: () => number;
}) {
  const entries = new Map<string, { version: number; until: number }>();
  let live = false;
  let generation = 0;

  const keep = (deviceId: string, version: number) => {
    const held = entries.get(deviceId);
    if (held) {
      held.version = Math.max(held.version, version);
      return;
    }
    // Oldest first out: a Map iterates in insertion order.
    if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
    entries.set(deviceId, { version, until: now() + ttlMs });
  };

  return {
    feed: {
      onPayload(payload: string) {
        const [deviceId, version] = payload.split(':');
        const n = Number(version);
        if (live && deviceId && Number.isInteger(n)) keep(deviceId, n);
      },
      onLive(next: boolean) {
        generation++;
        entries.clear();
        live = next;
      },
    },

    /** The machine's licence version now (0 for a machine that no longer exists). */
    async get(deviceId: string): Promise<number> {
      const held = entries.get(deviceId);
      if (held && held.until > now()) return held.version;
      if (held) entries.delete(deviceId);
      const readAt = generation;
      const [row] = await db
        .select({ version: devices.licenceVersion })
        .from(devices)
        .where(eq(devices.id, deviceId))
        .limit(1);
      const version = row?.version ?? 0;
      if (live && row && readAt === generation) keep(deviceId, version);
      return version;
    },

    get size() {
      return entries.size;
    },
  };
}
export type LicenceVersions = ReturnType<typeof createLicenceVersions>;
