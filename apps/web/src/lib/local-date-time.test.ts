import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildAdminProfile } from '#web/test/fixtures.ts';
import { inputToIso, nowForInput } from './local-date-time.ts';
import { clearSession, mergeProfile, startSession } from './session-store.ts';

// The admin's zone is the one kept with the session.
beforeEach(() => {
  startSession(buildAdminProfile([]), 'a.b.c');
  mergeProfile({ timeZone: 'Europe/Berlin' });
});
afterEach(() => clearSession());

describe('local date-time inputs', () => {
  it("shows now in the admin's time zone, to the minute", () => {
    expect(nowForInput(new Date('2030-01-02T10:15:42.000Z'))).toBe('2030-01-02T11:15');
  });

  it("reads a typed date-time in the admin's time zone", () => {
    expect(inputToIso('2030-07-01T08:30')).toBe('2030-07-01T06:30:00.000Z');
  });

  it('gives null for what is not a date-time', () => {
    expect(inputToIso('')).toBeNull();
    expect(inputToIso('yesterday')).toBeNull();
  });
});
