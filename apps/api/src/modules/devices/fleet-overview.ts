import type { OnlineFilter } from '@app/contract/devices';
import type { Db } from '#api/db/client.ts';
import { groupCells, mapCellDegrees, type MapCell, type MapState } from './map-cells.ts';

/** Unfiltered views at this zoom and below are rolled up from the kept overview's cells. */
export const overviewMaxZoom = 8;
/** How long the overview is kept: the online counts it shows may lag the fleet by this much. */
export const overviewMaxAgeMs = 15_000;
/**
 * A view asked for when the overview is older than this reads the fleet again in the background and
 * is answered from the kept one: a map in use never waits for the grouping (about 1 s at 1,000,000
 * machines), and what it shows is still never older than overviewMaxAgeMs.
 */
const refreshAheadMs = 10_000;

const stateOf: Record<OnlineFilter, MapState> = { online: 0, offline: 1, never: 2 };

/** The kept grid: each cell whole, and each cell's machines of one online state. */
type Kept = { all: MapCell[]; byState: MapCell[] };

/** Cells of one zoom-8 square summed: counts, position sums and extent (device only when alone). */
function merged(into: MapCell, c: MapCell, cx: number, cy: number): MapCell {
  return {
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
  };
}

/** `cells` rolled up into the cells `k` times their size. */
function rollUp(cells: Iterable<MapCell>, k: number): MapCell[] {
  const rolled = new Map<string, MapCell>();
  for (const c of cells) {
    const cx = Math.floor(c.cx / k);
    const cy = Math.floor(c.cy / k);
    const key = `${cx},${cy}`;
    const into = rolled.get(key);
    rolled.set(key, into ? merged(into, c, cx, cy) : { ...c, cx, cy, state: undefined });
  }
  return [...rolled.values()];
}

type Bounds = { west: number; south: number; east: number; north: number };

/**
 * The whole fleet on the map, kept (decision 052). Grouping 100,000 machines costs about 40 ms, a
 * whole scan (1 s at 1,000,000), and every admin opening the map or panning the world asks for it;
 * so the grid of zoom 8 (cells of 0.35 degrees) is kept for 15 s, or until the console adds or moves
 * a machine (`invalidate`), and every coarser view is summed from it. Each cell is kept by online
 * state too, so a view filtered by the online state alone is summed the same way (decision 078).
 * A position a heartbeat reports, or a machine another API instance added, shows once the 15 s are
 * up. Cells nest exactly, so a rolled-up view holds the same machines in the same clusters as a
 * query of its own; bounds apply per kept cell (a cell partly in view counts whole).
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
  let kept: { generation: number; at: number; cells: Kept } | null = null;
  // One load at a time: admins opening the map together share it.
  let loading: { generation: number; cells: Promise<Kept> } | null = null;

  function load(at: number): Promise<Kept> {
    const started = {
      generation,
      cells: groupCells(db, {
        cell: mapCellDegrees(overviewMaxZoom),
        onlineSince: new Date(at - offlineMinutes * 60_000),
        withExtent: true,
        byState: true,
      }).then((byState) => ({ byState, all: rollUp(byState, 1) })),
    };
    loading = started;
    started.cells.then(
      (cells) => {
        if (!kept || kept.generation <= started.generation)
          kept = { generation: started.generation, at, cells };
        if (loading === started) loading = null;
      },
      () => {
        if (loading === started) loading = null;
      },
    );
    return started.cells;
  }

  function keptCells(): Promise<Kept> {
    const at = now().getTime();
    if (kept?.generation === generation && at - kept.at < overviewMaxAgeMs) {
      if (at - kept.at >= refreshAheadMs && loading?.generation !== generation)
        load(at).catch(() => undefined);
      return Promise.resolve(kept.cells);
    }
    if (loading?.generation === generation) return loading.cells;
    return load(at);
  }

  return {
    /**
     * The fleet's cells at `zoom` (at most overviewMaxZoom), those touching `bounds` when given;
     * with `online`, only the machines in that state.
     */
    async cells(zoom: number, bounds?: Bounds, online?: OnlineFilter): Promise<MapCell[]> {
      const { all, byState } = await keptCells();
      const state = online === undefined ? undefined : stateOf[online];
      const inView = (state === undefined ? all : byState.filter((c) => c.state === state)).filter(
        (c) =>
          !bounds ||
          !(
            c.east! < bounds.west ||
            c.west! > bounds.east ||
            c.north! < bounds.south ||
            c.south! > bounds.north
          ),
      );
      return rollUp(inView, 2 ** (overviewMaxZoom - zoom)).sort((a, b) => b.count - a.count);
    },
    /** A machine was added or moved: the next view reads the fleet again. */
    invalidate() {
      generation += 1;
    },
  };
}
export type FleetOverview = ReturnType<typeof createFleetOverview>;
