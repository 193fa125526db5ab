import { eq } from 'drizzle-orm';
import type { Db } from '#api/db/client.ts';
import { tableRowCounts } from '#api/db/schema/devices.ts';
import { groupCells, mapCellDegrees, type MapCell } from './map-cells.ts';

/** Unfiltered views at this zoom and below are rolled up from the kept overview's cells. */
export const overviewMaxZoom = 8;
/** How long the overview is kept: the online counts it shows may lag the fleet by this much. */
export const overviewMaxAgeMs = 15_000;

type Bounds = { west: number; south: number; east: number; north: number };

/**
 * The whole fleet on the map, kept (decision 052). Grouping 100,000 machines costs about 40 ms, a
 * whole scan, and every admin opening the map or panning the world asks for it; so the grid of
 * zoom 8 (cells of 0.35 degrees) is kept for 15 s, or until the number of machines changes or a
 * machine is moved (`invalidate`), and every coarser view is summed from it. Cells nest exactly, so
 * a rolled-up view holds the same machines in the same clusters as a query of its own; bounds apply
 * per kept cell (a cell partly in view counts whole).
 */
export function createFleetOverview({
  db,
  now,
  offlineMinutes,
}: {
  db: Db;
  now: () => Date;
  offlineMinutes: number;
}) {
  let kept: { at: number; machines: number; cells: MapCell[] } | null = null;
  let loading: Promise<MapCell[]> | null = null;
  const machineCount = db
    .select({ n: tableRowCounts.n })
    .from(tableRowCounts)
    .where(eq(tableRowCounts.tableName, 'devices'))
    .prepare('map_devices_count');

  async function keptCells(): Promise<MapCell[]> {
    const at = now().getTime();
    const machines = Number((await machineCount.execute())[0]?.n ?? -1);
    if (kept && at - kept.at < overviewMaxAgeMs && kept.machines === machines) return kept.cells;
    // One load at a time: admins opening the map together share it.
    loading ??= groupCells(db, {
      cell: mapCellDegrees(overviewMaxZoom),
      onlineSince: new Date(at - offlineMinutes * 60_000),
      withExtent: true,
    })
      .then((cells) => ((kept = { at, machines, cells }), cells))
      .finally(() => (loading = null));
    return loading;
  }

  return {
    /** The fleet's cells at `zoom` (at most overviewMaxZoom), those touching `bounds` when given. */
    async cells(zoom: number, bounds?: Bounds): Promise<MapCell[]> {
      const k = 2 ** (overviewMaxZoom - zoom);
      const rolled = new Map<string, MapCell>();
      for (const c of await keptCells()) {
        if (
          bounds &&
          (c.east! < bounds.west ||
            c.west! > bounds.east ||
            c.north! < bounds.south ||
            c.south! > bounds.north)
        )
          continue;
        const cx = Math.floor(c.cx / k);
        const cy = Math.floor(c.cy / k);
        const key = `${cx},${cy}`;
        const into = rolled.get(key);
        if (!into) rolled.set(key, { ...c, cx, cy });
        else
          rolled.set(key, {
            cx,
            cy,
            count: into.count + c.count,
            latSum: into.latSum + c.latSum,
            lngSum: into.lngSum + c.lngSum,
            online: into.online + c.online,
            never: into.never + c.never,
            device: null,
            south: Math.min(into.south!, c.south!),
            west: Math.min(into.west!, c.west!),
            north: Math.max(into.north!, c.north!),
            east: Math.max(into.east!, c.east!),
          });
      }
      return [...rolled.values()].sort((a, b) => b.count - a.count);
    },
    /** A machine was moved: the next view reads the fleet again. */
    invalidate() {
      kept = null;
    },
  };
}
export type FleetOverview = ReturnType<typeof createFleetOverview>;
