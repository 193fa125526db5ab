import { and, sql, type SQL } from 'drizzle-orm';
import type { DeviceMap, MapBounds, MapPoint } from '@app/contract/device-map';
import { mapClusterMaxZoom } from '@app/contract/device-map';
import type { OnlineFilter } from '@app/contract/devices';
import type { Db } from '#api/db/client.ts';
import { devices } from '#api/db/schema/devices.ts';
import { deviceFilterWhere } from './device-filters.ts';

export type DeviceMapParams = {
  search?: string;
  online?: OnlineFilter;
  west?: number;
  south?: number;
  east?: number;
  north?: number;
  zoom: number;
};

/**
 * A cluster's cell, in degrees: about a quarter of a 256-pixel map tile at this zoom (64 pixels), so
 * clusters sit apart on screen. Past the cluster zoom each place is its own point (machines at the
 * very same place still share one).
 */
export const mapCellDegrees = (zoom: number) => (zoom > mapClusterMaxZoom ? 1e-7 : 360 / 2 ** zoom / 4);

/** At most this many points per answer: a view of tiny cells over a dense fleet stays bounded. */
const pointLimit = 5000;

type CellRow = {
  lat_sum: number;
  lng_sum: number;
  count: number;
  online: number;
  never: number;
  first: string | null;
};
type ExtentRow = { south: number | null; west: number | null; north: number | null; east: number | null };
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * The fleet map: the machines the device list's filters match, grouped on the server into a grid of
 * cells that fits the zoom, so the browser draws a few hundred points at any fleet size (decision
 * 052). One statement groups the cells; a second names the machines that are alone in theirs, by
 * the row address the first kept (a cast of every id to text in the grouping cost more than
 * everything else). Without bounds the answer carries the matches' count and extent too.
 */
export function createDeviceMap({
  db,
  now,
  offlineMinutes,
}: {
  db: Db;
  now: () => Date;
  offlineMinutes: number;
}) {
  return async function deviceMap(params: DeviceMapParams): Promise<Omit<DeviceMap, 'tiles'>> {
    const onlineSince = new Date(now().getTime() - offlineMinutes * 60_000);
    const { where: filtered } = deviceFilterWhere(params, onlineSince);
    const bounded = params.west !== undefined;
    const inBounds = bounded
      ? sql`${devices.mapLongitude} between ${params.west} and ${params.east} and ${devices.mapLatitude} between ${params.south} and ${params.north}`
      : undefined;
    const where = and(filtered, inBounds);
    const cell = mapCellDegrees(params.zoom);
    // Sums, not avg(): float8 avg keeps a running variance and cost four times as much here.
    const cells = rowsOf<CellRow>(
      await db.execute(sql`
        select sum(${devices.mapLatitude}) as lat_sum, sum(${devices.mapLongitude}) as lng_sum,
          count(*)::int as count,
          (count(*) filter (where ${devices.lastSeenAt} >= ${onlineSince.toISOString()}::timestamptz))::int as online,
          (count(*) filter (where ${devices.lastSeenAt} is null))::int as never,
          case when count(*) = 1 then min(ctid)::text end as first
        from ${devices}
        ${where ? sql`where ${where}` : sql``}
        group by floor(${devices.mapLongitude} / ${cell}::float8), floor(${devices.mapLatitude} / ${cell}::float8)
        order by count desc
        limit ${pointLimit}`),
    );
    const alone = await machinesAt(
      db,
      cells.flatMap((c) => (c.first ? [c.first] : [])),
    );
    const points = cells.map((c): MapPoint => {
      const count = Number(c.count);
      return {
        latitude: Number(c.lat_sum) / count,
        longitude: Number(c.lng_sum) / count,
        count,
        online: c.online,
        offline: count - c.online - c.never,
        never: c.never,
        device: (c.first && alone.get(c.first)) || null,
      };
    });
    const inView = points.reduce((n, p) => n + p.count, 0);
    if (bounded) return { total: null, inView, extent: null, points };
    return { total: inView, inView, extent: inView ? await extentOf(db, filtered) : null, points };
  };
}

/** The machines at these row addresses, by address (one that moved since is simply left out). */
async function machinesAt(db: Db, addresses: string[]) {
  const found = new Map<string, { _id: string; machineNumber: string }>();
  if (addresses.length === 0) return found;
  const rows = rowsOf<{ at: string; id: string; machine_number: string }>(
    await db.execute(sql`
      select ctid::text as at, ${devices.id} as id, ${devices.machineNumber} as machine_number
      from ${devices} where ctid = any(${`{${addresses.map((a) => `"${a}"`).join(',')}}`}::tid[])`),
  );
  for (const row of rows) found.set(row.at, { _id: row.id, machineNumber: row.machine_number });
  return found;
}

/**
 * Where the matching machines lie. Unfiltered, four index endpoints answer it (devices_map_position_idx
 * and devices_map_latitude_idx) at any fleet size; filtered, a pass over the matches.
 */
async function extentOf(db: Db, filtered: SQL | undefined): Promise<MapBounds> {
  const [row] = rowsOf<ExtentRow>(
    await db.execute(
      filtered
        ? sql`select min(${devices.mapLatitude}) as south, min(${devices.mapLongitude}) as west,
            max(${devices.mapLatitude}) as north, max(${devices.mapLongitude}) as east
          from ${devices} where ${filtered}`
        : sql`select (select min(${devices.mapLatitude}) from ${devices}) as south,
            (select min(${devices.mapLongitude}) from ${devices}) as west,
            (select max(${devices.mapLatitude}) from ${devices}) as north,
            (select max(${devices.mapLongitude}) from ${devices}) as east`,
    ),
  );
  return {
    south: Number(row!.south),
    west: Number(row!.west),
    north: Number(row!.north),
    east: Number(row!.east),
  };
}
