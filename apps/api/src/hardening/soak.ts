// `npm run soak` (not part of CI): the load suite's mix for SOAK_SECONDS (600) at SOAK_CONNECTIONS
// (50) against the real server, sampling its memory every SOAK_SAMPLE_MS (5000) after a full GC.
// "Memory flat": the live heap at the end (median of the last minute) is within SOAK_HEAP_BOUND
// (25 %) of the live heap after warm-up (median of the second minute), and so is the RSS within
// twice that. Writes .test-output/hardening/soak.json; `npm run soak` then publishes it (`npm run report`).
import { writeHardeningResult } from './result-file.ts';
import { mb, prepareLoadTarget, readMemorySamples, runLoad, type MemorySample } from './load-run.ts';

const seconds = Number(process.env.SOAK_SECONDS ?? 600);
const connections = Number(process.env.SOAK_CONNECTIONS ?? 50);
const sampleMs = Number(process.env.SOAK_SAMPLE_MS ?? 5000);
const bound = Number(process.env.SOAK_HEAP_BOUND ?? 0.25);
// Warm-up: JIT, pools, caches and the audit buffer reach their working size in the first minute.
const warmupMs = Math.min(60_000, (seconds * 1000) / 5);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : NaN;
};

const target = await prepareLoadTarget({
  port: 3607,
  extraDevices: 3000,
  memoryEveryMs: sampleMs,
  exposeGc: true,
});
let exitCode = 1;
try {
  const startedAt = Date.now();
  console.log(
    `soak: ${seconds} s at ${connections} connections against ${target.api.url} (${target.devices} devices)`,
  );
  const r = await runLoad(target, seconds, connections);
  const samples = readMemorySamples(target.memoryFile).filter((s) => s.t >= startedAt);
  const window = (from: number, to: number) =>
    samples.filter((s) => s.t - startedAt >= from && s.t - startedAt < to);
  const warm = window(warmupMs, warmupMs + 60_000);
  const end = window(seconds * 1000 - 60_000, Infinity);
  const pick = (xs: MemorySample[], k: 'heapUsed' | 'rss') => median(xs.map((s) => s[k]));
  const heapWarm = pick(warm, 'heapUsed');
  const heapEnd = pick(end, 'heapUsed');
  const rssWarm = pick(warm, 'rss');
  const rssEnd = pick(end, 'rss');
  const heapGrowth = (heapEnd - heapWarm) / heapWarm;
  const rssGrowth = (rssEnd - rssWarm) / rssWarm;
  const flat = heapGrowth <= bound && rssGrowth <= bound * 2;
  const clean = r.errors === 0 && r.timeouts === 0 && r.non2xx === 0;
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  const series = samples
    .filter((_, i) => i % Math.max(1, Math.round(samples.length / 12)) === 0)
    .map((s) => mb(s.heapUsed));
  writeHardeningResult({
    suite: 'soak',
    title: `Soak: ${Math.round(seconds / 60)} minutes at ${connections} connections, memory`,
    passed: flat && clean,
    database: 'PostgreSQL',
    figures: [
      { name: 'Requests served', value: r.requests.total },
      { name: 'Throughput', value: Math.round(r.requests.average), unit: 'req/s' },
      { name: 'Latency p50 / p99', value: `${r.latency.p50} / ${r.latency.p99}`, unit: 'ms' },
      { name: 'Errors + timeouts + non-2xx', value: r.errors + r.timeouts + r.non2xx, target: '0' },
      { name: 'Memory samples (after a full GC each)', value: samples.length },
      { name: 'Live heap after warm-up (median, 2nd minute)', value: mb(heapWarm), unit: 'MB' },
      { name: 'Live heap at the end (median, last minute)', value: mb(heapEnd), unit: 'MB' },
      { name: 'Heap growth warm-up to end', value: pct(heapGrowth), target: `<= ${pct(bound)}` },
      { name: 'RSS after warm-up / at the end', value: `${mb(rssWarm)} / ${mb(rssEnd)}`, unit: 'MB' },
      { name: 'RSS growth warm-up to end', value: pct(rssGrowth), target: `<= ${pct(bound * 2)}` },
      { name: 'Live heap over the run (MB, evenly spaced samples)', value: series.join(' → ') },
    ],
    notes: [
      'Run by hand with `npm run soak` (not part of CI); the same request mix as the load suite. The server runs with --expose-gc and a preloaded probe (apps/api/src/hardening/memory-probe.mjs) that collects garbage before each sample, so the heap figures are live memory, not garbage awaiting collection.',
      `Load average at the end: ${(await import('node:os'))
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} (2 shared cores).`,
    ],
  });
  console.log(
    `soak: ${r.requests.total} requests, heap ${mb(heapWarm)} → ${mb(heapEnd)} MB (${pct(heapGrowth)}), rss ${mb(rssWarm)} → ${mb(rssEnd)} MB; ${flat && clean ? 'passed' : 'FAILED'}`,
  );
  exitCode = flat && clean ? 0 : 1;
} finally {
  await target.close();
}
process.exit(exitCode);
