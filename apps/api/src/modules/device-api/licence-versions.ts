import { eq, sql } from 'drizzle-orm';
import type { LicenceState } from '@app/contract/licences';
import type { Db } from '#api/db/client.ts';
import { devices } from '#api/db/schema/devices.ts';

/** What a machine's signed licence says of it (modules/licence-tokens), as its row holds it. */
export type LicenceRow = {
  serialNumber: string;
  state: LicenceState;
  paidThrough: Date | null;
  graceUntil: Date | null;
  version: number;
};
type Entry = { version: number; until: number; row?: LicenceRow; rowAt?: number };

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
  rowTtlMs = 60_000,
  maxEntries = 100_000,
  now = Date.now,
}: {
  db: Db;
  ttlMs?: number;
  /**
   * How old a licence row held at its version (the token's claims) may be before it is read again:
   * a change of licence raises the version and is read at once; this bounds what does not (a serial
   * edited). An older row is still answered once while it is read again behind the answer.
   */
  rowTtlMs?: number;
  maxEntries?: number;
  now?: () => number;
}) {
  const entries = new Map<string, Entry>();
  const rowOf = db
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
    .prepare('licence_row_of_device');
  let live = false;
  let generation = 0;
  /** Rows being read again behind an answer: one read per machine at a time. */
  const refreshing = new Set<string>();

  /** Reads the machine's row and keeps it unless a notice came meanwhile (the generation). */
  const readRow = async (deviceId: string): Promise<LicenceRow | null> => {
    const readAt = generation;
    const [row] = await rowOf.execute({ deviceId });
    if (live && row && readAt === generation) keep(deviceId, row.version, row);
    return row ?? null;
  };

  /** Keeps the highest version seen; a row read at a lower version than a notice brought is dropped. */
  const keep = (deviceId: string, version: number, row?: LicenceRow) => {
    let held = entries.get(deviceId);
    if (!held) {
      // Oldest first out: a Map iterates in insertion order.
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      held = { version, until: now() + ttlMs };
      entries.set(deviceId, held);
    }
    held.version = Math.max(held.version, version);
    if (row && row.version >= held.version) Object.assign(held, { row, rowAt: now() });
    else if (held.row && held.row.version < held.version) held.row = undefined;
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

    /** The machine's licence version when memory holds it, without a promise (the heartbeat's path). */
    peek(deviceId: string): number | undefined {
      const held = entries.get(deviceId);
      return held && held.until > now() ? held.version : undefined;
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

    /**
     * The machine's licence row, for its signed licence: from memory while it is at the version
     * the notices say and younger than `rowTtlMs`, else read (null for a machine that is gone).
     */
    async licence(deviceId: string): Promise<LicenceRow | null> {
      const held = entries.get(deviceId);
      if (held && held.until <= now()) entries.delete(deviceId);
      else if (held?.row) {
        // Older than rowTtlMs but at the version the notices say: answered now and read again for
        // the next call, so a fleet whose rows age together never waits on a thousand reads at once
        // (bench:licence's p99, issue 34).
        if (now() - held.rowAt! >= rowTtlMs && !refreshing.has(deviceId)) {
          refreshing.add(deviceId);
          void readRow(deviceId)
            .catch(() => undefined)
            .finally(() => refreshing.delete(deviceId));
        }
        return held.row;
      }
      return readRow(deviceId);
    },

    get size() {
      return entries.size;
    },
  };
}
export type LicenceVersions = ReturnType<typeof createLicenceVersions>;
