// Load: autocannon from a second process against the real server (PostgreSQL, the demo data set
// plus a few thousand devices) for LOAD_SECONDS (60) at LOAD_CONNECTIONS (50) on a mix of list,
// detail and write calls with a valid admin token. No errors, no timeouts, no non-2xx answers.
import { afterAll, describe, expect, it } from 'vitest';
import { writeHardeningResult, type Figure } from './result-file.ts';
import { mb, prepareLoadTarget, readMemorySamples, runLoad } from './load-run.ts';

const seconds = Number(process.env.LOAD_SECONDS ?? 60);
const connections = Number(process.env.LOAD_CONNECTIONS ?? 50);
const extraDevices = Number(process.env.LOAD_DEVICES ?? 3000);

const figures: Figure[] = [];
const notes: string[] = [];
let passed = false;
afterAll(() => {
  writeHardeningResult({
    suite: 'load',
    title: `Load: ${seconds} s at ${connections} connections`,
    passed,
    database: 'PostgreSQL',
    figures,
    notes: [
      'autocannon runs in its own process; each connection cycles through: a machine heartbeat, a machine batch of 20 access logs (device API, one of 50 enrolled machines), device list page (random page of 50), device detail, user list, create device, subscription list, device status change.',
      'Every console request carries a valid admin token, so each one also passes the session check and writes an access-log row; every machine call carries a device credential.',
      ...notes,
    ],
  });
});

describe('load', () => {
  it(`serves ${connections} concurrent connections for ${seconds} s without an error or a non-2xx answer`, async () => {
    const target = await prepareLoadTarget({ port: 3606, extraDevices, memoryEveryMs: 2000 });
    try {
      const before = readMemorySamples(target.memoryFile).at(-1)!;
      const r = await runLoad(target, seconds, connections);
      const health = await fetch(`${target.api.url}/api/health`);
      const after = readMemorySamples(target.memoryFile).at(-1)!;
      const codes = Object.entries(r.statusCodeStats ?? {})
        .map(([code, s]) => `${code}: ${s.count}`)
        .join(', ');
      figures.push(
        { name: 'Devices in the database at start', value: target.devices },
        { name: 'Requests served', value: r.requests.total },
        { name: 'Throughput', value: Math.round(r.requests.average), unit: 'req/s' },
        { name: 'Latency p50', value: r.latency.p50, unit: 'ms' },
        { name: 'Latency p99', value: r.latency.p99, unit: 'ms' },
        { name: 'Latency max', value: r.latency.max, unit: 'ms' },
        { name: 'Errors (connection failures)', value: r.errors, target: '0' },
        { name: 'Timeouts (no answer within 30 s)', value: r.timeouts, target: '0' },
        { name: 'Non-2xx answers', value: r.non2xx, target: '0' },
        { name: '5xx answers', value: r['5xx'], target: '0' },
        { name: 'Server RSS before / after', value: `${mb(before.rss)} / ${mb(after.rss)}`, unit: 'MB' },
        {
          name: 'Server heap used before / after',
          value: `${mb(before.heapUsed)} / ${mb(after.heapUsed)}`,
          unit: 'MB',
        },
      );
      notes.push(
        `Status codes: ${codes}. Load average at the end: ${(await import('node:os'))
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')} (2 shared cores).`,
      );
      expect(r.requests.total).toBeGreaterThan(0);
      expect(r.errors).toBe(0);
      expect(r.timeouts).toBe(0);
      expect(r.non2xx).toBe(0);
      expect(health.status).toBe(200);
      passed = true;
    } finally {
      await target.close();
    }
  });
});
