import type { FastifyInstance, FastifySchema } from 'fastify';
import { routeAccess, type RouteAccess } from './route-access.ts';

export type RegisteredRoute = {
  method: string;
  url: string;
  /** Who may call it (every route declares it; the docs and the web app's files are public). */
  access: RouteAccess;
  public: boolean;
  /** The route's zod schemas: the strict-input test walks them. */
  schema?: FastifySchema;
};

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route with whether it is public: the deny-by-default test walks this list. */
    registeredRoutes: RegisteredRoute[];
  }
}

/** Deny by default, declared: a route without `config.access` stops the app from starting. */
export function installRouteRegistry(app: FastifyInstance) {
  const registeredRoutes: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', registeredRoutes);
  app.addHook('onRoute', (route) => {
    const access = routeAccess(route);
    route.config = { ...route.config, access };
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method !== 'HEAD')
        registeredRoutes.push({
          method,
          url: route.url,
          access,
          public: access === 'public',
          schema: route.schema,
        });
    }
  });
}
