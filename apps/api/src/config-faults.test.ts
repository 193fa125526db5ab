import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const base = { DATA_DIR: '/tmp/config-faults-test', JWT_SECRET: 'x'.repeat(32) };

describe('fault-handling settings', () => {
  it('defaults to a 5 s database connect timeout, a 60 s mail retry, 8 tries and 60 s for one delivery', () => {
    const config = loadConfig(base);
    expect(config.databaseConnectTimeoutMs).toBe(5000);
    expect(config.mailRetrySeconds).toBe(60);
    expect(config.mailMaxAttempts).toBe(8);
    expect(config.mailSendTimeoutSeconds).toBe(60);
  });

  it('reads DATABASE_CONNECT_TIMEOUT_MS, MAIL_RETRY_SECONDS, MAIL_MAX_ATTEMPTS and MAIL_SEND_TIMEOUT_SECONDS', () => {
    const config = loadConfig({
      ...base,
      DATABASE_CONNECT_TIMEOUT_MS: '2500',
      MAIL_RETRY_SECONDS: '5',
      MAIL_MAX_ATTEMPTS: '3',
      MAIL_SEND_TIMEOUT_SECONDS: '20',
    });
    expect(config).toMatchObject({
      databaseConnectTimeoutMs: 2500,
      mailRetrySeconds: 5,
      mailMaxAttempts: 3,
      mailSendTimeoutSeconds: 20,
    });
  });

  it('stops the start naming each bad value', () => {
    const attempt = () =>
      loadConfig({
        ...base,
        DATABASE_CONNECT_TIMEOUT_MS: '0',
        MAIL_RETRY_SECONDS: 'soon',
        MAIL_MAX_ATTEMPTS: '0',
        MAIL_SEND_TIMEOUT_SECONDS: '0',
      });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(
      /DATABASE_CONNECT_TIMEOUT_MS.*MAIL_RETRY_SECONDS.*MAIL_MAX_ATTEMPTS.*MAIL_SEND_TIMEOUT_SECONDS/,
    );
  });
});
