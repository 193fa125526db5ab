import { formatCount } from '@app/contract/count-format';
import type { MapPoint } from '@app/contract/device-map';

export type PointState = 'online' | 'offline' | 'never';

export const pointStateLabels: Record<PointState, string> = {
  online: 'Online',
  offline: 'Offline',
  never: 'Never seen',
};

/** A machine's state, or a cluster's most common one (ties: offline first, it needs attention). */
export function pointState(point: MapPoint): PointState {
  const { online, offline, never } = point;
  if (offline >= online && offline >= never && offline > 0) return 'offline';
  if (online >= never && online > 0) return 'online';
  return 'never';
}

const plural = (n: number, word: string) => `${formatCount(n)} ${word}${n === 1 ? '' : 's'}`;

/** What a marker says to a screen reader and in its tooltip. */
export function pointLabel(point: MapPoint): string {
  if (point.device)
    return `${point.device.machineNumber}, ${pointStateLabels[pointState(point)].toLowerCase()}`;
  const parts = (['online', 'offline', 'never'] as const)
    .filter((state) => point[state] > 0)
    .map((state) => `${formatCount(point[state])} ${pointStateLabels[state].toLowerCase()}`);
  return `${plural(point.count, 'machine')} here: ${parts.join(', ')}. Zoom in`;
}

/**
 * A cluster's diameter in pixels grows with the log of its count; a lone machine is a dot of 24 px,
 * the smallest target WCAG 2.2 lets a pointer aim at (2.5.8; axe's target-size failed at 18).
 */
export const pointSize = (point: MapPoint) =>
  point.device ? 24 : Math.round(Math.min(56, 28 + 6 * Math.log10(point.count)));

/** The URL's view part: the bounds clamped to the world and rounded, so equal views share a query. */
export function viewQuery(
  bounds: { getWest(): number; getSouth(): number; getEast(): number; getNorth(): number },
  zoom: number,
) {
  const r = (n: number) => Math.round(n * 1e5) / 1e5;
  const west = Math.max(-180, bounds.getWest());
  const east = Math.min(180, bounds.getEast());
  return {
    west: r(west <= east ? west : -180),
    south: r(Math.max(-90, bounds.getSouth())),
    east: r(west <= east ? east : 180),
    north: r(Math.min(90, bounds.getNorth())),
    zoom: Math.max(0, Math.min(22, Math.round(zoom))),
  };
}
