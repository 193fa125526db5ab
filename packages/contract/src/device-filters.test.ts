import { describe, expect, it } from 'vitest';
import { heartbeatBodySchema } from './device-api.ts';
import {
  appVersionFilterLabel,
  appVersionFilterValue,
  deviceListQuerySchema,
  parseAppVersionFilter,
} from './device-filters.ts';

describe('the App version filter value', () => {
  it('reads an app and code, an app that did not say, a bare code (any app) and none', () => {
    expect(parseAppVersionFilter('com.treatment.device:40')).toEqual({
      code: 40,
      appPackage: 'com.treatment.device',
    });
    expect(parseAppVersionFilter(':40')).toEqual({ code: 40, appPackage: null });
    expect(parseAppVersionFilter('40')).toEqual({ code: 40 });
    expect(parseAppVersionFilter('none')).toEqual({ code: null });
    // The code follows the last colon, whatever the package holds.
    expect(parseAppVersionFilter('odd:name:7')).toEqual({ code: 7, appPackage: 'odd:name' });
  });

  it('reads back every value the facet writes', () => {
    for (const appPackage of ['com.treatment.device', 'odd:name', null]) {
      expect(parseAppVersionFilter(appVersionFilterValue(42, appPackage))).toEqual({ code: 42, appPackage });
    }
  });

  it('accepts the longest package and the largest code a heartbeat may send', () => {
    const heartbeat = { versionCode: 2_147_483_647, versionName: '9.9.9', appName: 'a'.repeat(120) };
    expect(heartbeatBodySchema.safeParse(heartbeat).success).toBe(true);
    const value = appVersionFilterValue(heartbeat.versionCode, heartbeat.appName);
    expect(deviceListQuerySchema.safeParse({ appVersion: value }).success).toBe(true);
  });

  it('refuses anything else with a message naming appVersion', () => {
    for (const value of ['4.2', 'com.treatment.device:', 'com.treatment.device', '2147483648', ' 40']) {
      const result = deviceListQuerySchema.safeParse({ appVersion: value });
      expect(
        result.error?.issues.map((i) => i.message),
        value,
      ).toEqual([
        'appVersion must be none, a version code (40) or an app and version code (com.treatment.device:40)',
      ]);
    }
  });

  it('labels an option by app, version name and code', () => {
    expect(appVersionFilterLabel({ code: 40, appPackage: 'com.treatment.device' }, '1.3.0')).toBe(
      'com.treatment.device 1.3.0 (40)',
    );
    expect(appVersionFilterLabel({ code: 40, appPackage: null }, '1.3.0')).toBe('1.3.0 (40), app unknown');
    expect(appVersionFilterLabel({ code: 40 })).toBe('40, any app');
    expect(appVersionFilterLabel({ code: null })).toBe('Never reported');
  });
});
