import http from 'node:http';

/*
 * The load side of `npm run bench:ingest`: plain node:http with a keep-alive agent (far cheaper per
 * request than fetch, which matters when the load generator shares 2 cores with the API and
 * PostgreSQL), a closed loop (N requests in flight, as fast as answered: the sustained rate) and an
 * open loop (requests at a fixed rate, latency measured from when each was due, so a stall is not
 * hidden by the client waiting for it).
 */

export type Reply = { status: number; body: string };
export type Sample = {
  count: number;
  failures: number;
  statuses: Record<number, number>;
  latencies: number[];
  elapsedMs: number;
};

export function createLoadClient(baseUrl: string, sockets: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets });
  const { hostname, port } = new URL(baseUrl);
  const send = (
    method: 'GET' | 'POST',
    path: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<Reply> =>
    new Promise((resolve, reject) => {
      const req = http.request(
        {
          agent,
          hostname,
          port,
          path,
          method,
          headers:
            body === undefined
              ? headers
              : {
                  ...headers,
                  'content-type': 'application/json',
                  'content-length': Buffer.byteLength(body),
                },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
          );
          res.on('error', reject);
        },
      );
      req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
      req.on('error', reject);
      req.end(body);
    });
  return {
    post: (path: string, headers: Record<string, string>, body: string) => send('POST', path, headers, body),
    get: (path: string, headers: Record<string, string>) => send('GET', path, headers),
    close: () => agent.destroy(),
  };
}

const newSample = (): Sample => ({ count: 0, failures: 0, statuses: {}, latencies: [], elapsedMs: 0 });

async function timed(sample: Sample, due: number, send: () => Promise<Reply>, ok: (r: Reply) => boolean) {
  try {
    const reply = await send();
    sample.statuses[reply.status] = (sample.statuses[reply.status] ?? 0) + 1;
    if (!ok(reply)) sample.failures++;
  } catch {
    sample.failures++;
  }
  sample.count++;
  sample.latencies.push(performance.now() - due);
}

/** `concurrency` workers, each sending its next request as soon as the last is answered, for `durationMs`. */
export async function closedLoop(
  concurrency: number,
  durationMs: number,
  send: (n: number) => Promise<Reply>,
  ok: (r: Reply) => boolean = (r) => r.status === 200,
): Promise<Sample> {
  const sample = newSample();
  const start = performance.now();
  const end = start + durationMs;
  let n = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) await timed(sample, performance.now(), () => send(n++), ok);
    }),
  );
  sample.elapsedMs = performance.now() - start;
  return sample;
}

/** `ratePerSecond` requests a second for `durationMs`, whatever the answers take. */
export async function openLoop(
  ratePerSecond: number,
  durationMs: number,
  send: (n: number) => Promise<Reply>,
  ok: (r: Reply) => boolean = (r) => r.status === 200,
): Promise<Sample> {
  const sample = newSample();
  const start = performance.now();
  const total = Math.round((ratePerSecond * durationMs) / 1000);
  const interval = 1000 / ratePerSecond;
  const inFlight: Promise<void>[] = [];
  for (let n = 0; n < total; n++) {
    const due = start + n * interval;
    const wait = due - performance.now();
    // Timers are ~1 ms coarse: send everything that is due now in one go.
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    inFlight.push(timed(sample, due, () => send(n), ok));
  }
  await Promise.all(inFlight);
  sample.elapsedMs = performance.now() - start;
  return sample;
}

export function percentiles(latencies: number[]) {
  const sorted = Float64Array.from(latencies).sort();
  const at = (p: number) =>
    sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;
  const round = (v: number) => Math.round(v * 10) / 10;
  return { p50: round(at(50)), p95: round(at(95)), p99: round(at(99)) };
}
