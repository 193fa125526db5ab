import type { FastifyInstance } from 'fastify';
import { BadRequestError } from './errors.ts';

const nul = '\u0000';

/** The path of the first key or string value holding a NUL character, or null. */
function nulPath(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return value.includes(nul) ? path : null;
  if (depth > 32 || value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return null;
  for (const [key, inner] of Object.entries(value)) {
    const here = path ? `${path}.${key}` : key;
    if (key.includes(nul)) return here;
    const found = nulPath(inner, here, depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * PostgreSQL text cannot hold U+0000: a NUL in any parameter, query value or JSON field made the
 * query itself fail, a 500 (found by the fuzz suite on PostgreSQL; PGlite let it through). No
 * field of ours has a use for it, so every request carrying one is refused up front with a 400
 * naming the field, before the route's schema and handler run.
 */
export function installNulGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    const where = nulPath(request.params, '') ?? nulPath(request.query, '') ?? nulPath(request.body, '');
    if (where !== null) {
      const message = `${where || 'body'} must not contain a NUL character`;
      throw new BadRequestError(message, {
        errors: [{ path: where, message: 'must not contain a NUL character' }],
      });
    }
  });
}
