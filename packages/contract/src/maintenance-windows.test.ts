import { describe, expect, it } from 'vitest';
import {
  insideWindow,
  maintenanceWindowBodySchema,
  maintenanceWindowMessages,
} from './maintenance-windows.ts';

describe('maintenance windows', () => {
  const at = (iso: string) => new Date(iso);
  it('opens between start and end in the machine’s own time zone, end exclusive', () => {
    const w = { start: '02:00', end: '04:00', timeZone: 'Europe/Amsterdam' };
    // 01:30 UTC in winter is 02:30 in Amsterdam.
    expect(insideWindow(w, at('2026-11-28T01:30:00Z'))).toBe(true);
    expect(insideWindow(w, at('2026-11-28T00:59:00Z'))).toBe(false);
    expect(insideWindow(w, at('2026-11-28T03:00:00Z'))).toBe(false);
  });
  it('wraps past midnight when end is before start, and is always open without a window', () => {
    const w = { start: '22:00', end: '02:00', timeZone: 'UTC' };
    expect(insideWindow(w, at('2026-11-28T23:10:00Z'))).toBe(true);
    expect(insideWindow(w, at('2026-11-28T01:59:00Z'))).toBe(true);
    expect(insideWindow(w, at('2026-11-28T12:00:00Z'))).toBe(false);
    expect(insideWindow(null, at('2026-11-28T12:00:00Z'))).toBe(true);
  });
  it('names the field of a bad window', () => {
    const bad = (window: unknown) =>
      maintenanceWindowBodySchema.safeParse({ window }).error?.issues.map((i) => i.message);
    expect(bad({ start: '25:00', end: '03:00', timeZone: 'UTC' })).toEqual([
      maintenanceWindowMessages.startInvalid,
    ]);
    expect(bad({ start: '02:00', end: '02:00', timeZone: 'UTC' })).toEqual([
      maintenanceWindowMessages.sameStartEnd,
    ]);
    expect(bad({ start: '02:00', end: '03:00', timeZone: 'Mars/Olympus' })).toEqual([
      maintenanceWindowMessages.timeZoneInvalid,
    ]);
    expect(maintenanceWindowBodySchema.safeParse({ window: null }).success).toBe(true);
  });
});
