import { describe, expect, it } from 'vitest';
import {
  permissionCatalogue,
  permissionListSchema,
  permissionMessages,
  permissionNames,
  missingPermissionOf,
  noAccessTexts,
} from './permissions.ts';

describe('the permission catalogue', () => {
  it('names each permission once, each with a group and a one-line explanation', () => {
    expect(new Set(permissionNames).size).toBe(permissionNames.length);
    expect(permissionNames).toEqual(
      expect.arrayContaining(['devices.view', 'patients.reveal', 'users.manage', 'security.manage']),
    );
    for (const { name, group, explanation } of permissionCatalogue) {
      expect(name).toMatch(/^[a-z-]+\.[a-z]+$/);
      expect(group.length, name).toBeGreaterThan(0);
      expect(explanation, name).toMatch(/^[A-Z].{10,120}\.$/);
      expect(explanation, name).not.toContain('\n');
    }
  });

  it('keeps a group together, so the console can show them under one heading each', () => {
    const groups = permissionCatalogue.map((p) => p.group);
    const firstSeen = groups.filter((g, i) => groups.indexOf(g) === i);
    expect(groups).toEqual(firstSeen.flatMap((g) => groups.filter((x) => x === g)));
  });

  it('says which permission is missing', () => {
    expect(permissionMessages.missing('users.manage')).toBe(
      'You do not have access to this: it needs the permission "users.manage"',
    );
  });

  it('reads the missing permission back from the 403 msg, and nothing from any other msg', () => {
    for (const name of permissionNames)
      expect(missingPermissionOf(permissionMessages.missing(name))).toBe(name);
    expect(
      missingPermissionOf('You do not have access to this: it needs the permission "logs.destroy"'),
    ).toBe(null);
    expect(missingPermissionOf('Forbidden')).toBe(null);
  });

  it("tells the console's no-access page what is missing in the catalogue's words", () => {
    expect(noAccessTexts.missing('users.manage')).toBe(
      'This screen needs the permission "users.manage", which your role does not carry: see, add, edit and delete console and app users, and assign their machines.',
    );
  });

  it('accepts known names only, each once, in catalogue order', () => {
    expect(permissionListSchema.parse(['logs.view', 'devices.view', 'logs.view'])).toEqual([
      'devices.view',
      'logs.view',
    ]);
    const unknown = permissionListSchema.safeParse(['devices.view', 'devices.destroy']);
    expect(unknown.success).toBe(false);
    expect(unknown.error?.issues.map((i) => i.message)).toEqual([
      'permissions: "devices.destroy" is not a known permission',
    ]);
    expect(permissionListSchema.safeParse('devices.view').error?.issues[0]?.message).toBe(
      'permissions must be a list of permission names',
    );
  });
});
