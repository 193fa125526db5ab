/// <reference types="node" />
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Recorded = { method: string; url: string; headers: IncomingMessage['headers']; body: string };
export type Answer = { status: number; body?: unknown; headers?: Record<string, string> };

/** A real HTTP server on a free port for component tests: answers with `respond` (now or later), records every request. */
export async function startTestServer(respond: (request: Recorded) => Answer | Promise<Answer>) {
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      requests.push(recorded);
      // An answer may wait (a test holding it open sees the loading state).
      void Promise.resolve(respond(recorded)).then((answer) => {
        res.writeHead(answer.status, {
          'content-type': 'application/json',
          'access-control-allow-origin': '*',
          'access-control-expose-headers': '*',
          ...answer.headers,
        });
        res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    // Also ends connections still open (keep-alive, or an answer a failed test never released).
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
