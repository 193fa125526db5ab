import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const base = { DATA_DIR: '/tmp/config-housekeeping-test', JWT_SECRET: 'x'.repeat(32) };

describe('housekeeping settings', () => {
  it('runs hourly and keeps mail and payment events 30 days by default', () => {
    expect(loadConfig(base).housekeeping).toEqual({
      everySeconds: 3600,
      mailRetentionDays: 30,
      paymentEventRetentionDays: 30,
    });
  });

  it('reads HOUSEKEEPING_SECONDS, MAIL_RETENTION_DAYS and PAYMENT_EVENT_RETENTION_DAYS; 0 is never, or forever', () => {
    expect(
      loadConfig({
        ...base,
        HOUSEKEEPING_SECONDS: '0',
        MAIL_RETENTION_DAYS: '0',
        PAYMENT_EVENT_RETENTION_DAYS: '0',
      }).housekeeping,
    ).toEqual({ everySeconds: 0, mailRetentionDays: 0, paymentEventRetentionDays: 0 });
    expect(
      loadConfig({ ...base, PAYMENT_EVENT_RETENTION_DAYS: '7' }).housekeeping.paymentEventRetentionDays,
    ).toBe(7);
  });

  it('stops the start naming each bad value, and a payment event period inside the provider’s retries', () => {
    const attempt = () =>
      loadConfig({
        ...base,
        HOUSEKEEPING_SECONDS: '-1',
        MAIL_RETENTION_DAYS: 'a month',
        PAYMENT_EVENT_RETENTION_DAYS: '2',
      });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(
      /HOUSEKEEPING_SECONDS.*MAIL_RETENTION_DAYS.*PAYMENT_EVENT_RETENTION_DAYS must be 0 \(kept forever\) or at least 7/,
    );
  });
});
