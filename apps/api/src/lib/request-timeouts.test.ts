import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@app/contract/paths';
import { loadConfig } from '../config.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';

/*
 * A slow client over a real socket (issue 18, item 6): headers and part of a body, then nothing.
 * The server must answer 408 and close within the request timeout, not hold the socket forever.
 */

const requestTimeoutMs = 600;
let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp({ REQUEST_TIMEOUT_MS: String(requestTimeoutMs) });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as net.AddressInfo).port;
});
afterAll(() => t.close());

/** Sends `head` and then nothing; resolves with what came back and when the server closed. */
function slowClient(head: string): Promise<{ answer: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1', () => socket.write(head));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('error', reject);
    socket.on('close', () => resolve({ answer, closedAfterMs: Date.now() - started }));
    // A server that never closes fails the test here instead of hanging it.
    setTimeout(() => socket.destroy(), 15_000).unref();
  });
}

describe('a slow client', () => {
  it('gets 408 and a closed socket when its body stops halfway', async () => {
    const body = JSON.stringify({ email: 'slow@example.test', password: 'not-all-of-it' });
    const { answer, closedAfterMs } = await slowClient(
      `POST ${apiPaths.login} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain('"code":408');
    expect(closedAfterMs).toBeGreaterThanOrEqual(requestTimeoutMs - 50);
    expect(closedAfterMs).toBeLessThan(requestTimeoutMs + 5000);
  });

  it('keeps a signed-in multipart upload open past the request timeout while its bytes trickle in', async () => {
    const token = await t.login();
    const socket = net.connect(port, '127.0.0.1');
    let closed = false;
    socket.on('close', () => (closed = true));
    socket.on('error', () => {});
    socket.write(
      `POST ${apiPaths.systemUpdates} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 100000\r\n\r\n--b\r\n`,
    );
    await new Promise((r) => setTimeout(r, requestTimeoutMs * 2));
    expect(closed).toBe(false);
    socket.destroy();
  });

  it('still gets its answer when the whole request arrives in time', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(res.status).toBeLessThan(500);
  });

  it('leaves a multipart upload to the upload timeout (an APK on a slow link), which defaults to an hour', () => {
    const config = loadConfig({ DATA_DIR: '/tmp/timeouts-test', JWT_SECRET: 'x'.repeat(32) });
    expect(config.timeouts).toEqual({
      requestMs: 30_000,
      uploadMs: 3_600_000,
      idleMs: 60_000,
      headersMs: 20_000,
      keepAliveMs: 5000,
    });
    expect(t.app.server.requestTimeout).toBe(3_600_000);
    expect(t.app.server.headersTimeout).toBe(20_000);
    expect(t.app.server.keepAliveTimeout).toBe(5000);
    expect(t.app.server.timeout).toBe(60_000);
  });
});
