import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { createTerminalLog } from './terminal-log.ts';

/*
 * `npm start` on a terminal (issue 35 item 10): readable lines, and the ordinary requests folded
 * into one line a minute instead of two JSON lines each.
 */

const at = Date.UTC(2026, 10, 28, 9, 41, 2);
const json = (line: Record<string, unknown>) =>
  JSON.stringify({ level: 30, time: at, pid: 1, ...line }) + '\n';

function captured() {
  const lines: string[] = [];
  const log = createTerminalLog({
    out: (text) => lines.push(text),
    now: () => at,
    summaryEveryMs: 3_600_000,
  });
  return { log, lines };
}

const request = (reqId: string, method: string, url: string) =>
  json({ reqId, req: { method, url }, msg: 'incoming request' });
const answer = (reqId: string, statusCode: number, responseTime: number, level = 30) =>
  json({ level, reqId, res: { statusCode }, responseTime, msg: 'request completed' });

describe('the terminal log', () => {
  it('folds answered requests into one line, split between machines and the rest', () => {
    const { log, lines } = captured();
    log.write(request('r1', 'POST', '/api/v1/app/heartbeat'));
    log.write(answer('r1', 200, 2.4));
    log.write(request('r2', 'POST', '/api/v1/app/error-logs'));
    log.write(answer('r2', 201, 3));
    log.write(request('r3', 'GET', '/api/v1/admin/profile'));
    log.write(answer('r3', 304, 1));
    expect(lines).toEqual([]);
    log.flush();
    expect(lines).toEqual([
      '09:41:02 INFO  3 requests answered (2 from machines, 1 from the console and others)\n',
    ]);
    log.flush();
    expect(lines).toHaveLength(1);
  });

  it("writes the minute's line with the first line after the minute is up", () => {
    const lines: string[] = [];
    let clock = at;
    const log = createTerminalLog({ out: (text) => lines.push(text), now: () => clock });
    log.write(request('r1', 'POST', '/api/v1/app/heartbeat'));
    log.write(answer('r1', 200, 2));
    clock += 59_000;
    log.write(request('r2', 'POST', '/api/v1/app/heartbeat'));
    expect(lines).toEqual([]);
    clock += 1_000;
    log.write(answer('r2', 200, 2));
    expect(lines).toEqual([
      '09:42:02 INFO  1 request answered (1 from machines, 0 from the console and others)\n',
    ]);
  });

  it('gives a failed or slow request its own line, with its method, path, status and time', () => {
    const { log, lines } = captured();
    log.write(request('a', 'GET', '/api/v1/admin/machine/nope'));
    log.write(answer('a', 404, 1.2));
    log.write(request('b', 'POST', '/api/v1/admin/export'));
    log.write(answer('b', 500, 12, 50));
    log.write(request('c', 'GET', '/api/v1/admin/machine'));
    log.write(answer('c', 200, 1_500));
    expect(lines).toEqual([
      '09:41:02 WARN  GET /api/v1/admin/machine/nope 404 1 ms\n',
      '09:41:02 ERROR POST /api/v1/admin/export 500 12 ms\n',
      '09:41:02 WARN  GET /api/v1/admin/machine 200 1500 ms\n',
    ]);
  });

  it('writes other events as a message and its fields, and an error with its stack', () => {
    const { log, lines } = captured();
    log.write(
      json({ level: 40, reqId: 'x', securityEvent: 'access.denied', statusCode: 401, msg: 'security event' }),
    );
    log.write(
      json({
        level: 50,
        msg: 'mail send failed',
        err: { message: 'boom', stack: 'Error: boom\n    at send' },
      }),
    );
    log.write('not json at all');
    expect(lines).toEqual([
      '09:41:02 WARN  security event  securityEvent=access.denied statusCode=401\n',
      '09:41:02 ERROR mail send failed\nError: boom\n    at send\n',
      'not json at all\n',
    ]);
  });

  it('reads the lines Fastify really writes', async () => {
    const { log, lines } = captured();
    const app = Fastify({ logger: { stream: log } });
    app.get('/api/v1/app/ping', async () => ({ ok: true }));
    app.get('/missing-thing', async (_req, reply) => reply.code(404).send({ msg: 'no' }));
    await app.inject({ method: 'GET', url: '/api/v1/app/ping' });
    await app.inject({ method: 'GET', url: '/missing-thing' });
    await app.close();
    log.flush();
    expect(lines.some((l) => /WARN {2}GET \/missing-thing 404 \d+ ms\n$/.test(l))).toBe(true);
    expect(lines.at(-1)).toMatch(
      /INFO {2}1 request answered \(1 from machines, 0 from the console and others\)\n$/,
    );
    expect(lines.every((l) => !l.startsWith('{'))).toBe(true);
  });
});
