import type { FastifyInstance, FastifySchema } from 'fastify';
import type { RoutePermission } from '@app/contract/permissions';
import { routeAccess, routePermission, type RouteAccess } from './route-access.ts';
import { routeStepUp, type StepUpKind } from './step-up.ts';

export type RegisteredRoute = {
  method: string;
  url: string;
  /** Who may call it (every route declares it; the docs and the web app's files are public). */
  access: RouteAccess;
  /** What an admin route needs of the role (every admin route declares it); none on other routes. */
  permission?: RoutePermission;
  /** Whether it needs a fresh step-up: always, on a condition, or as the handler decides (lib/step-up.ts). */
  stepUp?: StepUpKind;
  /** Whether it checks, before any step-up, that the admin grants nothing they do not hold (decision 063). */
  authorizes: boolean;
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

/**
 * Deny by default, declared: a route without `config.access`, or an admin route without
 * `config.permission`, stops the app from starting.
 */
export function installRouteRegistry(app: FastifyInstance) {
  const registeredRoutes: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', registeredRoutes);
  app.addHook('onRoute', (route) => {
    const access = routeAccess(route);
    const permission = routePermission(route, access);
    const stepUp = routeStepUp(route, access);
    route.config = { ...route.config, access, permission };
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method !== 'HEAD')
        registeredRoutes.push({
          method,
          url: route.url,
          access,
          permission,
          stepUp,
          authorizes: typeof route.config?.authorize === 'function',
          public: access === 'public',
          schema: route.schema,
        });
    }
  });
}
