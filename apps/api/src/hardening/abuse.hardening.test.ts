import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@app/contract/paths';
import { createTestApp, testAdmin, type TestApp } from '../test/test-app.ts';
import { writeHardeningResult, type Figure } from './result-file.ts';

/*
 * Abuse figures for docs/reliability.md (issue 18): a parallel burst of wrong sign-ins against the
 * count-first throttle, and a slow client against the request timeout over a real socket.
 */

const burst = 60;
const requestTimeoutMs = 1000;
let t: TestApp;
const figures: Figure[] = [];
let passed = true;

beforeAll(async () => {
  t = await createTestApp({ REQUEST_TIMEOUT_MS: String(requestTimeoutMs) });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await t.close();
  writeHardeningResult({
    suite: 'abuse',
    title: 'Abuse: sign-in bursts and slow clients',
    passed,
    figures,
    notes: [
      `${burst} wrong sign-ins for one account from one address, sent at once; the throttle counts each attempt before the password check (decision 024).`,
      `A client sends the headers and 10 bytes of a JSON body, then nothing; REQUEST_TIMEOUT_MS=${requestTimeoutMs} here (30 s by default; decision 027).`,
    ],
  });
});

describe('abuse', () => {
  it('evaluates at most 5 of 60 wrong sign-ins sent at once', async () => {
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: burst }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: apiPaths.login,
          payload: { email: testAdmin.email, password: `wrong-${i}` },
          remoteAddress: '198.51.100.200',
        }),
      ),
    );
    const checked = answers.filter((a) => a.statusCode === 401).length;
    const refused = answers.filter((a) => a.statusCode === 429).length;
    figures.push(
      { name: 'Burst of wrong sign-ins (one account, one address)', value: burst },
      { name: 'Passwords checked (401)', value: checked, target: '≤ 5' },
      { name: 'Refused before any work (429)', value: refused, target: `≥ ${burst - 5}` },
      { name: 'Burst answered in', value: Math.round(performance.now() - started), unit: 'ms' },
    );
    passed &&= checked <= 5 && checked + refused === burst;
    expect(checked).toBeLessThanOrEqual(5);
    expect(checked + refused).toBe(burst);
  });

  it('answers a stalled body 408 and closes the socket within the request timeout', async () => {
    const { port } = t.app.server.address() as net.AddressInfo;
    const started = performance.now();
    const answer = await new Promise<string>((resolve, reject) => {
      let text = '';
      const socket = net.connect(port, '127.0.0.1', () =>
        socket.write(
          `POST ${apiPaths.login} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"email":`,
        ),
      );
      socket.on('data', (c) => (text += c.toString()));
      socket.on('error', reject);
      socket.on('close', () => resolve(text));
      setTimeout(() => socket.destroy(), 20_000).unref();
    });
    const closedAfter = Math.round(performance.now() - started);
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
    figures.push(
      { name: 'Slow client: request timeout', value: requestTimeoutMs, unit: 'ms' },
      { name: 'Slow client: answer', value: status, target: '408' },
      { name: 'Slow client: socket closed after', value: closedAfter, unit: 'ms', target: 'timeout + < 5 s' },
    );
    passed &&= status === 408 && closedAfter < requestTimeoutMs + 5000;
    expect(status).toBe(408);
    expect(closedAfter).toBeLessThan(requestTimeoutMs + 5000);
  });
});
