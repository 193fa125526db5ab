import { describe, expect, it } from 'vitest';
import {
  catalogueDefaults,
  effectiveSettings,
  machineSettingsSchema,
  settingKeys,
  settingLabels,
  settingsChangeBodySchema,
  settingsMessages,
} from './machine-settings.ts';

/* The settings catalogue (decision 079): the offline licence validity, in whole days. */

const issues = (body: unknown) => {
  const result = settingsChangeBodySchema.safeParse(body);
  return result.success
    ? []
    : result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
};

describe('licenceOfflineDays', () => {
  it('is in the catalogue with its label, help text and default', () => {
    expect(settingKeys).toContain('licenceOfflineDays');
    expect(settingLabels.licenceOfflineDays.label).toBe('Offline licence validity');
    expect(settingLabels.licenceOfflineDays.hint).toContain('LICENCE_OFFLINE_DAYS');
    expect(catalogueDefaults.licenceOfflineDays).toBe(7);
  });

  it('takes whole days from 1 to 90 (the most LICENCE_OFFLINE_DAYS can be), or null to remove it', () => {
    for (const days of [1, 3, 90, null]) expect(issues({ licenceOfflineDays: days })).toEqual([]);
    for (const bad of [0, -2, 1.5, 91, '3', true])
      expect(issues({ licenceOfflineDays: bad })).toEqual([
        { path: 'licenceOfflineDays', message: settingsMessages.licenceOfflineDays },
      ]);
  });

  it("names the key and the server's maximum when the server refuses a longer one", () => {
    expect(settingsMessages.licenceOfflineDaysAbove(7)).toMatch(/^licenceOfflineDays .* from 1 to 7 /);
  });

  it("takes a fraction of a day as its effective value (the server's default), and the nearest level wins", () => {
    expect(machineSettingsSchema.safeParse({ ...catalogueDefaults, licenceOfflineDays: 0.5 }).success).toBe(
      true,
    );
    const { effective, sources } = effectiveSettings(
      { ...catalogueDefaults, licenceOfflineDays: 0.5 },
      { licenceOfflineDays: 4 },
      { licenceOfflineDays: { value: 3, groupId: 'g' } },
      {},
    );
    expect(effective.licenceOfflineDays).toBe(3);
    expect(sources.licenceOfflineDays).toEqual({ source: 'group', groupId: 'g' });
  });
});
