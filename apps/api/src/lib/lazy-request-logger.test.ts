import Fastify from 'fastify';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { lazyRequestLogger } from './lazy-request-logger.ts';

/** A server whose logger writes JSON lines to `lines` and counts the children pino makes. */
async function serverLoggingTo(lines: Record<string, unknown>[], level = 'warn') {
  const base = pino({ level }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  const children = { made: 0 };
  const child = base.child;
  // Pino's children inherit from their parent, so every generation is counted here.
  base.child = function (this: typeof base, ...args: Parameters<typeof base.child>) {
    children.made++;
    return child.apply(this, args);
  } as typeof base.child;
  const app = Fastify({
    loggerInstance: base,
    childLoggerFactory: lazyRequestLogger,
    disableRequestLogging: true,
  });
  app.get('/quiet', async (request) => {
    request.log.info({ step: 'below the level' }, 'not written');
    request.log.debug('not written either');
    return { ok: true };
  });
  app.get('/loud', async (request) => {
    request.log.warn({ step: 'at the level' }, 'written');
    request.log.child({ part: 'inner' }).error('from a grandchild');
    return { ok: request.log.isLevelEnabled('warn') && !request.log.isLevelEnabled('info') };
  });
  // Fastify makes children of its own while it starts; only the requests' count here.
  await app.ready();
  children.made = 0;
  return { app, children };
}

describe('the lazy request logger', () => {
  it('makes no child for a request that logs only below the level', async () => {
    const lines: Record<string, unknown>[] = [];
    const { app, children } = await serverLoggingTo(lines);
    const res = await app.inject({ method: 'GET', url: '/quiet' });
    expect(res.statusCode).toBe(200);
    expect(children.made).toBe(0);
    expect(lines).toEqual([]);
    await app.close();
  });

  it('writes lines at the level with the request id, and its own children carry it too', async () => {
    const lines: Record<string, unknown>[] = [];
    const { app, children } = await serverLoggingTo(lines);
    const res = await app.inject({ method: 'GET', url: '/loud' });
    expect(res.json()).toEqual({ ok: true });
    // The request's child, then the grandchild it was asked for.
    expect(children.made).toBe(2);
    expect(lines).toEqual([
      expect.objectContaining({ level: 40, msg: 'written', step: 'at the level', reqId: 'req-1' }),
      expect.objectContaining({ level: 50, msg: 'from a grandchild', part: 'inner', reqId: 'req-1' }),
    ]);
    await app.close();
  });

  it('follows a lower server level', async () => {
    const lines: Record<string, unknown>[] = [];
    const { app } = await serverLoggingTo(lines, 'info');
    await app.inject({ method: 'GET', url: '/quiet' });
    expect(lines).toEqual([expect.objectContaining({ level: 30, msg: 'not written', reqId: 'req-1' })]);
    await app.close();
  });
});
