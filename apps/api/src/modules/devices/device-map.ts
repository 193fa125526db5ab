import { and, sql, type SQL } from 'drizzle-orm';
import type { DeviceMap, DeviceMapParams, MapBounds, MapPoint } from '@app/contract/device-map';
import type { Db } from '#api/db/client.ts';
import { rowsOf } from '#api/db/rows-of.ts';
import { devices } from '#api/db/schema/devices.ts';
import { deviceFilterWhere } from './device-filters.ts';
import { overviewMaxZoom, type FleetOverview } from './fleet-overview.ts';
import { cellLimit, groupCells, mapCellDegrees, type MapCell } from './map-cells.ts';

type ExtentRow = { south: number | null; west: number | null; north: number | null; east: number | null };

/**
 * The fleet map (decision 052): the machines the device list's filters match, grouped on the server
 * into a grid of cells that fits the zoom, so the browser draws a few hundred points at any fleet
 * size. The unfiltered fleet, or the online state alone, at a low zoom comes from the kept overview
 * (decision 078); everything else is grouped
 * when asked. Without bounds the answer carries the matches' count and extent too.
 */
export function createDeviceMap({
  db,
  now,
  offlineMinutes,
  overview,
}: {
  db: Db;
  now: () => Date;
  offlineMinutes: number;
  overview: FleetOverview;
}) {
  return async function deviceMap(params: DeviceMapParams): Promise<Omit<DeviceMap, 'tiles'>> {
    const at = now();
    const onlineSince = new Date(at.getTime() - offlineMinutes * 60_000);
    const { where: filtered, searched, faceted } = deviceFilterWhere(params, onlineSince, at);
    const bounds =
      params.west !== undefined
        ? { west: params.west, south: params.south!, east: params.east!, north: params.north! }
        : undefined;
    // The whole fleet, or the online state alone, at a low zoom: summed from the kept overview.
    const fromOverview = !searched && !faceted && params.zoom <= overviewMaxZoom;
    const cells = fromOverview
      ? await overview.cells(params.zoom, bounds, params.online)
      : await groupCells(db, {
          where: and(
            filtered,
            bounds &&
              sql`${devices.mapLongitude} between ${bounds.west} and ${bounds.east} and ${devices.mapLatitude} between ${bounds.south} and ${bounds.north}`,
          ),
          cell: mapCellDegrees(params.zoom),
          onlineSince,
          // Without bounds the answer says where the matches lie: found in the same pass.
          withExtent: !bounds,
        });
    const points = cells.map(toPoint);
    const inView = points.reduce((n, p) => n + p.count, 0);
    if (bounds) return { total: null, inView, extent: null, points };
    const extent =
      inView === 0
        ? null
        : fromOverview || cells.length < cellLimit
          ? extentOfCells(cells)
          : await extentOf(db, filtered);
    return { total: inView, inView, extent, points };
  };
}

const toPoint = (c: MapCell): MapPoint => ({
  latitude: c.latSum / c.count,
  longitude: c.lngSum / c.count,
  count: c.count,
  online: c.online,
  offline: c.count - c.online - c.never,
  never: c.never,
  device: c.count === 1 ? c.device : null,
});

const extentOfCells = (cells: MapCell[]): MapBounds => ({
  south: Math.min(...cells.map((c) => c.south!)),
  west: Math.min(...cells.map((c) => c.west!)),
  north: Math.max(...cells.map((c) => c.north!)),
  east: Math.max(...cells.map((c) => c.east!)),
});

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
