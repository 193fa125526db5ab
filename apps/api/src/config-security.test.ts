import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const base = { DATA_DIR: '/tmp/config-security-test', JWT_SECRET: 'x'.repeat(32) };
const postgres = { ...base, DATABASE_URL: 'postgres://db.internal/console' };

describe('the payment provider', () => {
  it('refuses to start on a real database without PAYMENT_PROVIDER, in one line naming it', () => {
    for (const env of [postgres, { ...postgres, NODE_ENV: 'production' }]) {
      const start = () => loadConfig(env);
      expect(start).toThrow(ConfigError);
      expect(start).toThrow(/^Invalid configuration: PAYMENT_PROVIDER is required when DATABASE_URL is set/);
      expect(() => start()).not.toThrow(/\n/);
    }
  });

  it('starts on a real database with the provider named, demo included', () => {
    expect(loadConfig({ ...postgres, PAYMENT_PROVIDER: 'demo' }).paymentProvider).toBe('demo');
    expect(
      loadConfig({ ...postgres, PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_x' }).paymentProvider,
    ).toBe('stripe');
  });

  it('keeps the demo default for the embedded database, and lets the operator commands start without one', () => {
    expect(loadConfig(base).paymentProvider).toBe('demo');
    expect(loadConfig(postgres, { takesPayments: false }).databaseUrl).toBe(postgres.DATABASE_URL);
  });
});
