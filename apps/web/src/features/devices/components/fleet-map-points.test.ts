import { describe, expect, it } from 'vitest';
import type { MapPoint } from '@app/contract/device-map';
import { pointLabel, pointSize, pointState, viewQuery } from './fleet-map-points.ts';

const point = (over: Partial<MapPoint>): MapPoint => ({
  latitude: 52.5,
  longitude: 13.4,
  count: 1,
  online: 0,
  offline: 0,
  never: 0,
  device: null,
  ...over,
});

describe('fleet map points', () => {
  it('names a lone machine by its number and state, and a cluster by its counts', () => {
    const lone = point({ online: 1, device: { _id: 'a', machineNumber: 'MN-1060' } });
    expect(pointLabel(lone)).toBe('MN-1060, online');
    expect(pointLabel(point({ count: 1, never: 1, device: { _id: 'b', machineNumber: 'MN-7' } }))).toBe(
      'MN-7, never seen',
    );
    expect(pointLabel(point({ count: 1200, online: 1000, offline: 200 }))).toBe(
      '1,200 machines here: 1,000 online, 200 offline. Zoom in',
    );
  });

  it('colours a cluster by its most common state, offline first on a tie', () => {
    expect(pointState(point({ count: 3, online: 2, offline: 1 }))).toBe('online');
    expect(pointState(point({ count: 4, online: 2, offline: 2 }))).toBe('offline');
    expect(pointState(point({ count: 3, never: 2, online: 1 }))).toBe('never');
  });

  it('grows clusters with the log of their count and keeps lone machines small', () => {
    expect(pointSize(point({ device: { _id: 'a', machineNumber: 'M' } }))).toBe(24);
    expect(pointSize(point({ count: 10 }))).toBe(34);
    expect(pointSize(point({ count: 10 ** 9 }))).toBe(56);
  });

  it('clamps a view that wraps past the antimeridian to the world the API accepts', () => {
    const bounds = (west: number, south: number, east: number, north: number) => ({
      getWest: () => west,
      getSouth: () => south,
      getEast: () => east,
      getNorth: () => north,
    });
    expect(viewQuery(bounds(-400, -95, 400, 95), 1.2)).toEqual({
      west: -180,
      south: -90,
      east: 180,
      north: 90,
      zoom: 1,
    });
    expect(viewQuery(bounds(13.123456789, 52.1, 13.5, 52.6), 11)).toEqual({
      west: 13.12346,
      south: 52.1,
      east: 13.5,
      north: 52.6,
      zoom: 11,
    });
  });
});
