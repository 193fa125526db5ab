import { afterEach, describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, orNA } from './format.ts';
import { clearSession, reloadSessionFromStorage, SESSION_STORAGE_KEY } from './session-store.ts';

const signInWithZone = (timeZone: string) => {
  localStorage.setItem(
    SESSION_STORAGE_KEY,
    JSON.stringify({ details: { token: 't', timeZone }, toggle: true }),
  );
  reloadSessionFromStorage();
};

afterEach(() => clearSession());

describe('orNA', () => {
  it('shows N/A for empty, blank, null and missing values', () => {
    expect(orNA('')).toBe('N/A');
    expect(orNA('   ')).toBe('N/A');
    expect(orNA(null)).toBe('N/A');
    expect(orNA(undefined)).toBe('N/A');
    expect(orNA(Number.NaN)).toBe('N/A');
  });

  it('keeps real values, zero and false included', () => {
    expect(orNA('Berlin')).toBe('Berlin');
    expect(orNA(0)).toBe('0');
    expect(orNA(false)).toBe('false');
  });
});

describe('formatDate and formatDateTime', () => {
  it('shows a date as DD-MM-YYYY and a date-time as DD/MM/YYYY HH:mm:ss in the given zone', () => {
    expect(formatDate('2024-03-05T10:20:30Z', undefined, 'UTC')).toBe('05-03-2024');
    expect(formatDateTime('2024-03-05T10:20:30Z', undefined, 'UTC')).toBe('05/03/2024 10:20:30');
  });

  it("uses the admin's stored time zone", () => {
    signInWithZone('Asia/Kolkata');
    expect(formatDateTime('2024-03-05T20:00:00Z')).toBe('06/03/2024 01:30:00');
    expect(formatDate('2024-03-05T20:00:00Z')).toBe('06-03-2024');
    signInWithZone('America/New_York');
    expect(formatDate('2024-03-05T02:00:00Z')).toBe('04-03-2024');
  });

  it('accepts an explicit format, epoch milliseconds and Date objects', () => {
    expect(formatDate(Date.UTC(2023, 11, 31, 12), 'YYYY/MM/DD', 'UTC')).toBe('2023/12/31');
    expect(formatDateTime(new Date('2023-01-02T03:04:05Z'), undefined, 'UTC')).toBe('02/01/2023 03:04:05');
  });

  it('shows N/A for a missing or invalid date', () => {
    expect(formatDate(null)).toBe('N/A');
    expect(formatDate(undefined)).toBe('N/A');
    expect(formatDate('')).toBe('N/A');
    expect(formatDateTime('not a date')).toBe('N/A');
  });
});
