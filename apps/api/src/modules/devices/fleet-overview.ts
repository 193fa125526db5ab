import type { Db } from '#api/db/client.ts';
import { groupCells, mapCellDegrees, type MapCell } from './map-cells.ts';

/** Unfiltered views at this zoom and below are rolled up from the kept overview's cells. */
export const overviewMaxZoom = 8;
/** How long the overview is kept: the online counts it shows may lag the fleet by this much. */
export const overviewMaxAgeMs = 15_000;

type Bounds = { west: number; south: number; east: number; north: number };

/**
 * The whole fleet on the map, kept (decision 052). Grouping 100,000 machines costs about 40 ms, a
 * whole scan, and every admin opening the map or panning the world asks for it; so the grid of
 * zoom 8 (cells of 0.35 degrees) is kept for 15 s, or until the console adds or moves a machine
 * (`invalidate`), and every coarser view is summed from it. A position a heartbeat reports, or a
 * machine another API instance added, shows once the 15 s are up. Cells nest exactly, so
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
  // An invalidation starts a new generation: what was kept or is loading from before it is not used.
  let generation = 0;
  let kept: { generation: number; at: number; cells: MapCell[] } | null = null;
  // One load at a time: admins opening the map together share it.
  let loading: { generation: number; cells: Promise<MapCell[]> } | null = null;

  function keptCells(): Promise<MapCell[]> {
    const at = now().getTime();
    if (kept?.generation === generation && at - kept.at < overviewMaxAgeMs)
      return Promise.resolve(kept.cells);
    if (loading?.generation === generation) return loading.cells;
    const load = {
      generation,
      cells: groupCells(db, {
        cell: mapCellDegrees(overviewMaxZoom),
        onlineSince: new Date(at - offlineMinutes * 60_000),
        withExtent: true,
      }),
    };
    loading = load;
    load.cells.then(
      (cells) => {
        if (!kept || kept.generation <= load.generation) kept = { generation: load.generation, at, cells };
        if (loading === load) loading = null;
      },
      () => {
        if (loading === load) loading = null;
      },
    );
    return load.cells;
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
    /** A machine was added or moved: the next view reads the fleet again. */
    invalidate() {
      generation += 1;
    },
  };
}
export type FleetOverview = ReturnType<typeof createFleetOverview>;
