import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '#api/db/client.ts';
import { createBatchWriter } from '#api/lib/batch-writer.ts';

/** What a machine's calls said since the last write; the newest call wins, fields it left out keep theirs. */
export type CheckIn = {
  at: Date;
  versionCode?: number;
  versionName?: string;
  appPackage?: string;
  latitude?: number;
  longitude?: number;
  /** A heartbeat's busy flag (a treatment is running); other calls leave it as it was. */
  busy?: boolean;
};

type Options = {
  db: Db;
  log?: Pick<FastifyBaseLogger, 'warn'>;
  flushIntervalMs?: number;
  /** Rows per UPDATE: bounds one statement's size and the rows it locks at once. */
  maxRowsPerStatement?: number;
  /** Machines kept in memory while the database cannot be written; beyond, new machines wait. */
  maxPending?: number;
};

/**
 * Last-seen times, coalesced (docs/decisions/022). Every device call only updates an entry in a
 * map; a timer writes the map every ~1 s in one UPDATE ... FROM (VALUES ...), so 1,000 calls a
 * second cost one statement a second, not 1,000. A crash loses at most the last second's times.
 */
export function createCheckIns({
  db,
  log,
  flushIntervalMs = 1000,
  maxRowsPerStatement = 5000,
  maxPending = 200_000,
}: Options) {
  /** Merged in place (the map's entries are its own copies): two calls a heartbeat, no allocation. */
  const merge = (into: Map<string, CheckIn>, deviceId: string, next: CheckIn) => {
    const old = into.get(deviceId);
    if (!old) {
      if (into.size >= maxPending) return;
      into.set(deviceId, { ...next });
      return;
    }
    // A write put back after a failure may be older than what came since: keep the newer of each.
    // Field by field, by name: a loop over the keys made each a megamorphic lookup on the hot path.
    const newer = next.at.getTime() >= old.at.getTime();
    if (newer) old.at = next.at;
    const take = <T>(mine: T | undefined, theirs: T | undefined) =>
      theirs === undefined || theirs === null || (!newer && mine !== undefined && mine !== null)
        ? mine
        : theirs;
    old.versionCode = take(old.versionCode, next.versionCode);
    old.versionName = take(old.versionName, next.versionName);
    old.appPackage = take(old.appPackage, next.appPackage);
    old.latitude = take(old.latitude, next.latitude);
    old.longitude = take(old.longitude, next.longitude);
    old.busy = take(old.busy, next.busy);
  };

  async function writeChunk(rows: Array<[string, CheckIn]>) {
    // One JSON parameter, not six per row: the statement is built in microseconds whatever the
    // fleet's size, and PostgreSQL parses one value (a 1,000-row write built with 6,000
    // placeholders held the event loop long enough to show in the heartbeat's p99).
    const values = JSON.stringify(
      rows.map(([id, c]) => ({
        id,
        at: c.at.toISOString(),
        version_code: c.versionCode ?? null,
        version_name: c.versionName ?? null,
        app_package: c.appPackage ?? null,
        lat: c.latitude ?? null,
        lon: c.longitude ?? null,
        busy: c.busy ?? null,
      })),
    );
    // greatest() ignores nulls; a time never moves backwards (two instances, a late retry).
    await db.execute(sql`
      update devices set
        last_seen_at = greatest(devices.last_seen_at, v.at),
        app_version_code = coalesce(v.version_code, devices.app_version_code),
        app_version_name = coalesce(v.version_name, devices.app_version_name),
        app_package = coalesce(v.app_package, devices.app_package),
        reported_latitude = coalesce(v.lat, devices.reported_latitude),
        reported_longitude = coalesce(v.lon, devices.reported_longitude),
        busy_since = case when v.busy is null then devices.busy_since
          when v.busy then coalesce(devices.busy_since, v.at) end
      from json_to_recordset(${values}::json)
        as v(id uuid, at timestamptz, version_code integer, version_name text, app_package text,
          lat float8, lon float8, busy boolean)
      where devices.id = v.id`);
  }

  type Pending = Map<string, CheckIn>;
  const writer = createBatchWriter<Pending>({
    flushIntervalMs,
    // The database away: the entries wait (bounded by maxPending) and are tried again a second later.
    retryLeftovers: true,
    empty: () => new Map(),
    size: (pending) => pending.size,
    putBack: (left, since) => {
      for (const [id, c] of left) merge(since, id, c);
      return since;
    },
    async write(batch) {
      // In id order: two API instances writing the same rows lock them in the same order.
      const rows = [...batch].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      for (let i = 0; i < rows.length; i += maxRowsPerStatement) {
        try {
          await writeChunk(rows.slice(i, i + maxRowsPerStatement));
        } catch (err) {
          log?.warn(
            { err, machines: rows.length - i },
            'check-ins: writing last-seen times failed; retrying',
          );
          return new Map(rows.slice(i));
        }
      }
      return new Map();
    },
  });

  return {
    /** Notes a call from the machine (and what its heartbeat said). Memory only; never waits. */
    record(deviceId: string, checkIn: CheckIn) {
      writer.add((pending) => merge(pending, deviceId, checkIn));
    },
    /** Writes what is pending; resolves when it is in the database (tests await it). */
    flush: writer.flush,
    close: writer.close,
  };
}
