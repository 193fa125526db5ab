import { matchPath, matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { SIGN_IN_PATH } from './api-client.ts';
import { paths } from './paths.ts';

describe('paths', () => {
  it('builds the spec’s fixed paths', () => {
    expect(paths.signIn.href()).toBe('/login-admin');
    expect(paths.devices.href()).toBe('/admin/device');
    expect(paths.subscriptions.href()).toBe('/admin/subscription-management');
    expect(paths.updateProfile.href()).toBe('/admin/update-profile');
  });

  it('puts an id into its path, encoded so it stays one segment', () => {
    expect(paths.deviceDetails.href({ id: '65f0c2' })).toBe('/admin/device-details/65f0c2');
    expect(paths.viewUser.href({ id: 'a/b c?d#e' })).toBe('/admin/view-user/a%2Fb%20c%3Fd%23e');
    expect(paths.resetPassword.href({ token: 'tok+/=' })).toBe('/reset-password/tok%2B%2F%3D');
  });

  it('gives back the id its href was built with when the router matches it', () => {
    const id = 'a/b c%d';
    const matches = matchRoutes([{ path: paths.viewTechnician.path }], paths.viewTechnician.href({ id }));
    expect(matches?.[0]?.params.id).toBe(id);
  });

  it('adds a list query, leaving out empty values, and encodes it', () => {
    expect(paths.devices.href({ page: 2, limit: 25, search: '' })).toBe('/admin/device?page=2&limit=25');
    expect(paths.users.href({ search: 'ann & bob', sort: 'email', direction: 'desc' })).toBe(
      '/admin/user-management?search=ann+%26+bob&sort=email&direction=desc',
    );
    expect(paths.roles.href({})).toBe('/admin/roles');
  });

  it('matches every route’s own href with its pattern', () => {
    for (const [name, route] of Object.entries(paths)) {
      if (!('href' in route)) continue;
      const href = (route.href as (arg: Record<string, string>) => string)({ id: '7', token: 't' });
      expect(matchPath(route.path, href.split('?')[0]!), name).not.toBeNull();
    }
  });

  it('agrees with the sign-in path the 401 rule of the API client uses', () => {
    expect(SIGN_IN_PATH).toBe(paths.signIn.href());
  });
});
