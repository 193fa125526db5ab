import { Stream } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { BadRequestError } from './errors.ts';
import { routeConfigOf } from './route-config.ts';

const nul = '\u0000';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A device batch (`{ items: [...] }`, decision 023): a NUL inside one item refuses only that
     * item, in the batch's answer (the batch's service checks each item with `nulPath`); a NUL
     * anywhere else in the request is still a 400.
     */
    nulCheckedPerItem?: boolean;
  }
}

/**
 * The path of the first key or string value holding a NUL character, or null; array positions are
 * numbers. The path is built only on the way back from a find: a clean body (nearly all of them)
 * allocates no strings. A body that is a stream (a file sent as the body itself, e.g. a machine's
 * diagnostics) is not text and is not walked: over a real socket its properties reach the socket,
 * the server and everything they hold, a walk that never ended and froze the process.
 */
export function nulPath(value: unknown, depth = 0): (string | number)[] | null {
  if (typeof value === 'string') return value.includes(nul) ? [] : null;
  if (depth > 32 || value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return null;
  if (value instanceof Stream) return null;
  const list = Array.isArray(value);
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (key.includes(nul)) return [key];
    const found = nulPath((value as Record<string, unknown>)[key], depth + 1);
    if (found) return [list ? Number(key) : key, ...found];
  }
  return null;
}

/** What a refusal says, for the whole request (`where` is the dotted path) or for one batch item. */
export const nulMessage = (where: string) => `${where || 'body'} must not contain a NUL character`;

/** Like `nulPath` on a batch's body, but leaves the items of `items` to the batch's own per-item check. */
function nulPathOutsideItems(body: unknown): (string | number)[] | null {
  if (body === null || typeof body !== 'object' || !Array.isArray((body as { items?: unknown }).items))
    return nulPath(body);
  for (const key in body) {
    if (!Object.hasOwn(body, key) || key === 'items') continue;
    if (key.includes(nul)) return [key];
    const found = nulPath((body as Record<string, unknown>)[key], 1);
    if (found) return [key, ...found];
  }
  return null;
}

/**
 * PostgreSQL text cannot hold U+0000: a NUL in any parameter, query value or JSON field made the
 * query itself fail, a 500 (found by the fuzz suite on PostgreSQL; PGlite let it through). No
 * field of ours has a use for it, so every request carrying one is refused up front with a 400
 * naming the field, before the route's schema and handler run. The exception is a device batch
 * (`nulCheckedPerItem`): one bad item must not sink the others, so its items are checked one by one.
 */
export function installNulGuard(app: FastifyInstance) {
  app.addHook('preValidation', (request, _reply, done) => {
    const found =
      nulPath(request.params) ??
      nulPath(request.query) ??
      (routeConfigOf(request).nulCheckedPerItem ? nulPathOutsideItems(request.body) : nulPath(request.body));
    if (found === null) return done();
    const where = found.join('.');
    done(
      new BadRequestError(nulMessage(where), {
        errors: [{ path: where, message: 'must not contain a NUL character' }],
      }),
    );
  });
}
