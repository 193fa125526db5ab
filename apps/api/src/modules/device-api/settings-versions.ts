import { eq, sql } from 'drizzle-orm';
import type { Db } from '#api/db/client.ts';
import { devices } from '#api/db/schema/devices.ts';

/**
 * What the heartbeat's answer says of a machine's settings, and the offline validity its signed
 * licence gets (null: set at no level, the server's LICENCE_OFFLINE_DAYS).
 */
export type SettingsBeat = { version: number; heartbeatSeconds: number; licenceOfflineDays: number | null };
type Entry = SettingsBeat & { until: number };

/**
 * Each machine's settings version and heartbeat interval for the heartbeat's answer (and its offline
 * licence validity for the signed licence, modules/licence-tokens), from memory
 * (the heartbeat stays free of reads, decision 038). A notice on 'settings_changed' (a machine's id,
 * or '*' for many) forgets what it names, and the next heartbeat reads the row again: so an app
 * learns of new settings on its next heartbeat. While the feed is not live nothing is kept, and a
 * read that began before a notice arrived is not kept either (a generation count).
 */
export function createSettingsVersions({
  db,
  defaultHeartbeatSeconds,
  ttlMs = 15 * 60_000,
  maxEntries = 100_000,
  now = Date.now,
}: {
  db: Db;
  defaultHeartbeatSeconds: number;
  ttlMs?: number;
  maxEntries?: number;
  now?: () => number;
}) {
  const entries = new Map<string, Entry>();
  // The machine's own value, else its group's, else the fleet's: prepared once (a cold heartbeat's read).
  const nearest = (key: string) => sql<unknown>`coalesce(${devices.settingsOwn}->${sql.raw(`'${key}'`)},
    ${devices.settingsFromGroups}->${sql.raw(`'${key}'`)}->'value',
    (select value from fleet_settings where key = ${sql.raw(`'${key}'`)}))`;
  const rowOf = db
    .select({
      version: devices.settingsVersion,
      heartbeat: nearest('heartbeatSeconds'),
      licenceOfflineDays: nearest('licenceOfflineDays'),
    })
    .from(devices)
    .where(eq(devices.id, sql.placeholder('deviceId')))
    .limit(1)
    .prepare('settings_beat_of_device');
  let live = false;
  let generation = 0;

  return {
    feed: {
      onPayload(payload: string) {
        generation++;
        if (payload === '*') entries.clear();
        else entries.delete(payload);
      },
      onLive(next: boolean) {
        generation++;
        entries.clear();
        live = next;
      },
    },

    /** From memory, without a promise (the heartbeat's path). */
    peek(deviceId: string): SettingsBeat | undefined {
      const held = entries.get(deviceId);
      return held && held.until > now() ? held : undefined;
    },

    /** Read from the machine's row and the fleet's default (one statement), and kept while live. */
    async get(deviceId: string): Promise<SettingsBeat> {
      const readAt = generation;
      const [row] = await rowOf.execute({ deviceId });
      const beat: SettingsBeat = {
        version: row?.version ?? 0,
        heartbeatSeconds: typeof row?.heartbeat === 'number' ? row.heartbeat : defaultHeartbeatSeconds,
        licenceOfflineDays: typeof row?.licenceOfflineDays === 'number' ? row.licenceOfflineDays : null,
      };
      if (live && row && readAt === generation) {
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
        entries.set(deviceId, { ...beat, until: now() + ttlMs });
      }
      return beat;
    },

    get size() {
      return entries.size;
    },
  };
}
export type SettingsVersions = ReturnType<typeof createSettingsVersions>;
