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
    const mail = { MAIL_TRANSPORT: 'outbox' };
    expect(loadConfig({ ...postgres, ...mail, PAYMENT_PROVIDER: 'demo' }).paymentProvider).toBe('demo');
    expect(
      loadConfig({ ...postgres, ...mail, PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_x' })
        .paymentProvider,
    ).toBe('stripe');
  });

  it('keeps the demo default for the embedded database, and lets the operator commands start without one', () => {
    expect(loadConfig(base).paymentProvider).toBe('demo');
    expect(loadConfig(postgres, { takesPayments: false }).databaseUrl).toBe(postgres.DATABASE_URL);
  });
});

describe('the mail transport (issue 35 item 3)', () => {
  const named = { ...postgres, PAYMENT_PROVIDER: 'demo' };

  it('refuses to start on a real database without SMTP_URL unless MAIL_TRANSPORT names the choice, in one line', () => {
    const start = () => loadConfig(named);
    expect(start).toThrow(ConfigError);
    expect(start).toThrow(
      /^Invalid configuration: SMTP_URL is required when DATABASE_URL is set \(or MAIL_TRANSPORT=outbox to keep mail in the outbox only\)$/,
    );
    expect(loadConfig({ ...named, MAIL_TRANSPORT: 'outbox' }).mailTransport).toBe('outbox');
    expect(loadConfig({ ...named, SMTP_URL: 'smtp://mail.internal:25' }).mailTransport).toBe('smtp');
    expect(() => loadConfig({ ...named, MAIL_TRANSPORT: 'carrier-pigeon' })).toThrow(/MAIL_TRANSPORT/);
  });

  it('prints mail on the embedded default, keeps it in the outbox when asked, and sends through SMTP_URL when set', () => {
    expect(loadConfig(base).mailTransport).toBe('print');
    expect(loadConfig({ ...base, MAIL_TRANSPORT: 'outbox' }).mailTransport).toBe('outbox');
    expect(
      loadConfig({ ...base, SMTP_URL: 'smtp://mail.internal:25', MAIL_TRANSPORT: 'outbox' }).mailTransport,
    ).toBe('smtp');
    // The operator's commands send no mail.
    expect(loadConfig(postgres, { takesPayments: false }).mailTransport).toBe('print');
  });
});
