import type { RouteOptions } from 'fastify';
import { isPermission, permissionNames, type RoutePermission } from '@app/contract/permissions';
import { routeAccessKinds, type RouteAccess } from './request-context.ts';

export type { RouteAccess };

/**
 * The access a route declared. Routes the framework adds itself are public reading: the API docs
 * and the web app's static files (outside /api, where the auth hook never looks). Every other
 * route must say `config: { access }`; one that does not throws here, at registration, so an
 * unguarded route can never be served (docs/decisions/001, 012).
 */
export function routeAccess(route: Pick<RouteOptions, 'url' | 'method' | 'config'>): RouteAccess {
  const declared = route.config?.access;
  if (routeAccessKinds.includes(declared as RouteAccess)) return declared as RouteAccess;
  if (declared !== undefined)
    throw new Error(
      `Route ${String(route.method)} ${route.url}: access must be one of ${routeAccessKinds.join(', ')}, not ${JSON.stringify(declared)}`,
    );
  const api = route.url === '/api' || route.url.startsWith('/api/');
  if (!api || route.url.startsWith('/api/docs')) return 'public';
  throw new Error(
    `Route ${String(route.method)} ${route.url} declares no access: add config: { access: 'public' | 'admin' | 'device' | 'app-user' | 'clinic' }`,
  );
}

/**
 * The permission an admin route declared: a name from the contract's catalogue, or `any-admin` for
 * what every signed-in admin needs. Like the access, an admin route that declares none (or a name
 * not in the catalogue) throws at registration, so the app cannot start with it; a route of any
 * other access must not declare one (nothing would check it).
 */
export function routePermission(
  route: Pick<RouteOptions, 'url' | 'method' | 'config'>,
  access: RouteAccess,
): RoutePermission | undefined {
  const declared = route.config?.permission;
  const name = `Route ${String(route.method)} ${route.url}`;
  if (access !== 'admin') {
    if (declared !== undefined)
      throw new Error(`${name}: only an admin route declares a permission (its access is ${access})`);
    return undefined;
  }
  if (declared === undefined)
    throw new Error(
      `${name} declares no permission: add config: { permission: '<a name from packages/contract/src/permissions.ts>' | 'any-admin' }`,
    );
  if (declared !== 'any-admin' && !isPermission(declared))
    throw new Error(
      `${name}: permission must be 'any-admin' or one of ${permissionNames.join(', ')}, not ${JSON.stringify(declared)}`,
    );
  return declared;
}
