// Preloaded into the API server by the load and soak suites (node --import): appends the process's
// memory use as a JSON line to MEMORY_PROBE_FILE every MEMORY_PROBE_MS, without touching app code.
// With node --expose-gc, a full collection runs first, so heapUsed is the live heap, not garbage
// waiting for the next GC (what a "memory stays flat" check needs to compare).
import { appendFileSync } from 'node:fs';

const file = process.env.MEMORY_PROBE_FILE;
const every = Number(process.env.MEMORY_PROBE_MS ?? 2000);
if (file) {
  const sample = () => {
    globalThis.gc?.();
    const m = process.memoryUsage();
    appendFileSync(
      file,
      `${JSON.stringify({ t: Date.now(), rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external })}\n`,
    );
  };
  sample();
  setInterval(sample, every).unref();
}
