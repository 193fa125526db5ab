import type { FastifyContextConfig, FastifyRequest } from 'fastify';

export type RouteConfig = FastifyContextConfig & { url?: string; method?: string };

const configs = new WeakMap<object, RouteConfig>();

/**
 * The matched route's config (with its `url` pattern and `method`, which Fastify adds), read once
 * per request. `request.routeOptions` builds a new object of a dozen fields on every read, and the
 * hooks read it five times a request (decision 040).
 */
export function routeConfigOf(request: Pick<FastifyRequest, 'routeOptions'>): RouteConfig {
  let config = configs.get(request);
  if (!config) {
    config = request.routeOptions.config as RouteConfig;
    configs.set(request, config);
  }
  return config;
}
