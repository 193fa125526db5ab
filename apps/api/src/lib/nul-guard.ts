import type { FastifyInstance } from 'fastify';
import { BadRequestError } from './errors.ts';

const nul = '\u0000';

/**
 * The path of the first key or string value holding a NUL character, or null. The path is built
 * only on the way back from a find: a clean body (nearly all of them) allocates no strings.
 */
function nulPath(value: unknown, depth = 0): string[] | null {
  if (typeof value === 'string') return value.includes(nul) ? [] : null;
  if (depth > 32 || value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return null;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (key.includes(nul)) return [key];
    const found = nulPath((value as Record<string, unknown>)[key], depth + 1);
    if (found) return [key, ...found];
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
  app.addHook('preValidation', (request, _reply, done) => {
    const found = nulPath(request.params) ?? nulPath(request.query) ?? nulPath(request.body);
    if (found === null) return done();
    const where = found.join('.');
    done(
      new BadRequestError(`${where || 'body'} must not contain a NUL character`, {
        errors: [{ path: where, message: 'must not contain a NUL character' }],
      }),
    );
  });
}
