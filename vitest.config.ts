import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Vitest's default in a run is one worker fewer than the CPUs: a single worker on 2 cores, while
    // the other core mostly waits. Two keep both busy (as in the fast loop, vitest.fast.config.ts).
    maxWorkers: 2,
    // The API's test files reuse their worker process (one import of the app and one pool of migrated
    // databases per worker, src/test/pglite-pool.ts) instead of a new process per file, as the fast
    // loop does; the web files keep a fresh VM context each (decision 062).
    poolOptions: { forks: { isolate: false } },
    // A reused worker holds databases and the app's modules when it is stopped; on a loaded machine
    // stopping it can take longer than Vitest's 10 s default, which then fails a run that passed.
    teardownTimeout: 60_000,
    projects: ['packages/contract', 'packages/fake-data', 'apps/api', 'apps/web'],
  },
});
