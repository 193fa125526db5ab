import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

/**
 * Serves the built console on the API's origin. Hashed files under /assets are cached for a year;
 * index.html never, so a new release is picked up at once. Unknown non-API paths get index.html
 * (the SPA's router decides), unknown /api paths a JSON 404.
 */
export async function serveWebApp(app: FastifyInstance, distDir: string) {
  if (!existsSync(path.join(distDir, 'index.html'))) {
    app.log.warn(`web app not built at ${distDir}: only the API is served`);
    return false;
  }
  await app.register(fastifyStatic, {
    root: distDir,
    // Looked up per request rather than indexed at start, so a rebuild is served without a restart;
    // a missing file falls through to the not-found handler (index.html or a JSON 404).
    wildcard: true,
    // `/` is the sign-in page: a directory request serves index.html, not a 403.
    index: 'index.html',
    // Build bookkeeping such as .build-hash is not for the browser.
    allowedPath: (pathName) => !pathName.split('/').some((part) => part.startsWith('.')),
    cacheControl: false,
    // Since @fastify/static 10 this receives the Fastify reply, not the raw response.
    setHeaders(reply, filePath) {
      const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
      reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  return true;
}

/**
 * Paths the console never serves: the API, and the documents machines read under /.well-known/
 * (the licences' JWKS), where an unknown path must be a JSON 404, not the console's page.
 */
export function isApiPath(url: string) {
  return (
    url === '/api' || url.startsWith('/api/') || url.startsWith('/api?') || url.startsWith('/.well-known/')
  );
}
