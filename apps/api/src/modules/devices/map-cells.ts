import { sql, type SQL } from 'drizzle-orm';
import { mapClusterMaxZoom } from '@app/contract/device-map';
import type { Db } from '#api/db/client.ts';
import { rowsOf } from '#api/db/rows-of.ts';
import { devices } from '#api/db/schema/devices.ts';

/**
 * A cluster's cell, in degrees: about a quarter of a 256-pixel map tile at this zoom (64 pixels), so
 * clusters sit apart on screen. Past the cluster zoom each place is its own point (machines at the
 * very same place still share one). Cells of every zoom nest exactly: a cell of zoom z holds
 * 2^(z'-z) × 2^(z'-z) cells of zoom z' > z.
 */
export const mapCellDegrees = (zoom: number) => (zoom > mapClusterMaxZoom ? 1e-7 : 360 / 2 ** zoom / 4);

/** At most this many cells per answer: a view of tiny cells over a dense fleet stays bounded. */
export const cellLimit = 5000;

/** Machines near each other: the grid cell (cx, cy), sums for the mean position, counts by state. */
export type MapCell = {
  cx: number;
  cy: number;
  count: number;
  latSum: number;
  lngSum: number;
  online: number;
  never: number;
  /** The machine when it is alone in its cell. */
  device: { _id: string; machineNumber: string } | null;
  /** Asked with `byState`: the online state all the cell's machines share (0 online, 1 offline, 2 never seen). */
  state?: MapState;
  /** Where the cell's machines lie, asked with `withExtent`. */
  south?: number;
  west?: number;
  north?: number;
  east?: number;
};

/** An online state as the grid groups it: 0 online, 1 offline, 2 never seen. */
export type MapState = 0 | 1 | 2;

type CellRow = {
  state?: MapState;
  cx: number;
  cy: number;
  lat_sum: number;
  lng_sum: number;
  count: number;
  online: number;
  never: number;
  first: string | null;
  south?: number;
  west?: number;
  north?: number;
  east?: number;
};

/**
 * The machines matching `where` grouped into the grid of `cell` degrees (decision 052). One
 * statement groups; a second names the machines alone in their cell by the row address the first
 * kept (casting every id to text inside the grouping cost more than the rest of it). Sums, not
 * avg(): float avg keeps a running variance and cost several times as much.
 */
export async function groupCells(
  db: Db,
  {
    where,
    cell,
    onlineSince,
    withExtent = false,
    byState = false,
  }: { where?: SQL; cell: number; onlineSince: Date; withExtent?: boolean; byState?: boolean },
): Promise<MapCell[]> {
  const rows = rowsOf<CellRow>(
    await db.execute(sql`
      select floor(${devices.mapLongitude} / ${cell}::float8)::int as cx,
        floor(${devices.mapLatitude} / ${cell}::float8)::int as cy,
        sum(${devices.mapLatitude}) as lat_sum, sum(${devices.mapLongitude}) as lng_sum,
        count(*)::int as count,
        (count(*) filter (where ${devices.lastSeenAt} >= ${onlineSince.toISOString()}::timestamptz))::int as online,
        (count(*) filter (where ${devices.lastSeenAt} is null))::int as never,
        case when count(*) = 1 then min(ctid)::text end as first
        ${
          byState
            ? sql`, case when ${devices.lastSeenAt} >= ${onlineSince.toISOString()}::timestamptz then 0
                when ${devices.lastSeenAt} is null then 2 else 1 end as state`
            : sql``
        }
        ${
          withExtent
            ? sql`, min(${devices.mapLatitude}) as south, min(${devices.mapLongitude}) as west,
                max(${devices.mapLatitude}) as north, max(${devices.mapLongitude}) as east`
            : sql``
        }
      from ${devices}
      ${where ? sql`where ${where}` : sql``}
      group by 1, 2${byState ? sql`, state` : sql``}
      order by count desc
      ${byState ? sql`` : sql`limit ${cellLimit}`}`),
  );
  const alone = await machinesAt(
    db,
    rows.flatMap((r) => (r.first ? [r.first] : [])),
  );
  return rows.map((r) => ({
    cx: r.cx,
    cy: r.cy,
    count: r.count,
    latSum: Number(r.lat_sum),
    lngSum: Number(r.lng_sum),
    online: r.online,
    never: r.never,
    device: (r.first && alone.get(r.first)) || null,
    ...(byState ? { state: r.state } : {}),
    ...(withExtent
      ? { south: Number(r.south), west: Number(r.west), north: Number(r.north), east: Number(r.east) }
      : {}),
  }));
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
