// Shared by the benches that time single API requests at scale (bench:dashboard, bench:map):
// the server's own time per request through a Server-Timing header, and percentiles over a case.

/** Adds `server-timing: app;dur=<ms>` to every answer: request received to response sent. */
export function addServerTiming(app) {
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('server-timing', `app;dur=${reply.elapsedTime.toFixed(3)}`);
    return payload;
  });
}

/** A GET as an admin: the server's time, the round trip and the answer's data; any other status throws. */
export const timedGet = (address) => async (token, pathAndQuery) => {
  const t0 = performance.now();
  const res = await fetch(`${address}${pathAndQuery}`, { headers: { authorization: `Bearer ${token}` } });
  const body = await res.json();
  const roundTrip = performance.now() - t0;
  if (res.status !== 200) throw new Error(`${pathAndQuery}: ${res.status} ${body.msg}`);
  const server = Number(/dur=([\d.]+)/.exec(res.headers.get('server-timing') ?? '')?.[1] ?? NaN);
  return { server, roundTrip, data: body.data };
};

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
export const round = (n) => Math.round(n * 100) / 100;

/** `iterations` requests after `warmup`, one at a time: p50 and p95 of server time and round trip. */
export async function timeCase(call, token, url, { iterations, warmup }) {
  for (let i = 0; i < warmup; i++) await call(token, url);
  const server = [];
  const trip = [];
  let last;
  for (let i = 0; i < iterations; i++) {
    last = await call(token, url);
    server.push(last.server);
    trip.push(last.roundTrip);
  }
  server.sort((a, b) => a - b);
  trip.sort((a, b) => a - b);
  return {
    serverP50: round(percentile(server, 50)),
    serverP95: round(percentile(server, 95)),
    roundTripP50: round(percentile(trip, 50)),
    roundTripP95: round(percentile(trip, 95)),
    last: last.data,
  };
}
