import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const base = { DATA_DIR: '/tmp/config-retention-test', JWT_SECRET: 'x'.repeat(32) };

describe('retention settings (decision 086)', () => {
  it('runs daily, keeps health data 10 years (the Netherlands 15, Poland 20) and logs 2,192 days by default', () => {
    expect(loadConfig(base).retention).toEqual({
      everySeconds: 86_400,
      healthYears: 10,
      healthCountryYears: [
        { country: 'Netherlands', years: 15 },
        { country: 'Poland', years: 20 },
      ],
      logDays: 2_192,
    });
  });

  it('reads each variable; 0 is never, or forever', () => {
    expect(
      loadConfig({
        ...base,
        RETENTION_SECONDS: '0',
        HEALTH_RETENTION_YEARS: '5',
        HEALTH_RETENTION_COUNTRIES: ' Germany=10 , Poland=20,',
        LOG_RETENTION_DAYS: '0',
      }).retention,
    ).toEqual({
      everySeconds: 0,
      healthYears: 5,
      healthCountryYears: [
        { country: 'Germany', years: 10 },
        { country: 'Poland', years: 20 },
      ],
      logDays: 0,
    });
    expect(loadConfig({ ...base, HEALTH_RETENTION_COUNTRIES: 'none' }).retention.healthCountryYears).toEqual(
      [],
    );
  });

  it('stops the start naming each bad value, and health data under its 5-year minimum', () => {
    const attempt = () =>
      loadConfig({
        ...base,
        RETENTION_SECONDS: '-1',
        HEALTH_RETENTION_YEARS: '4',
        HEALTH_RETENTION_COUNTRIES: 'Netherlands=15,Poland=3',
        LOG_RETENTION_DAYS: '30',
      });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/RETENTION_SECONDS/);
    expect(attempt).toThrow(/HEALTH_RETENTION_YEARS must be at least 5/);
    expect(attempt).toThrow(
      /HEALTH_RETENTION_COUNTRIES "Poland=3": each must be Country=years, at least 5 years/,
    );
    expect(attempt).toThrow(/LOG_RETENTION_DAYS must be 0 \(kept forever\) or at least 365/);
    expect(() => loadConfig({ ...base, HEALTH_RETENTION_COUNTRIES: 'Netherlands' })).toThrow(
      /HEALTH_RETENTION_COUNTRIES "Netherlands": each must be Country=years/,
    );
  });
});
