import type { RouteOptions } from 'fastify';
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
    `Route ${String(route.method)} ${route.url} declares no access: add config: { access: 'public' | 'admin' | 'device' | 'app-user' }`,
  );
}
