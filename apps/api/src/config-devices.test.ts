import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const base = { DATA_DIR: '/tmp/config-devices-test', JWT_SECRET: 'x'.repeat(32) };

describe('the machines’ settings', () => {
  it('default to 15 minutes Offline, a 5-minute heartbeat, 600 calls a minute and 50 s long-polls', () => {
    const c = loadConfig(base);
    expect([
      c.deviceOfflineMinutes,
      c.deviceHeartbeatSeconds,
      c.deviceRatePerMinute,
      c.deviceLongPollSeconds,
    ]).toEqual([15, 300, 600, 50]);
  });

  it('read DEVICE_LONG_POLL_SECONDS from 0 to 50, and stop the start naming a value outside', () => {
    expect(loadConfig({ ...base, DEVICE_LONG_POLL_SECONDS: '25' }).deviceLongPollSeconds).toBe(25);
    expect(loadConfig({ ...base, DEVICE_LONG_POLL_SECONDS: '0' }).deviceLongPollSeconds).toBe(0);
    const attempt = () => loadConfig({ ...base, DEVICE_LONG_POLL_SECONDS: '60' });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/DEVICE_LONG_POLL_SECONDS must be at most 50/);
  });
});
