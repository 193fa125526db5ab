import { configDefaults, defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'api',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // The hardening suites have their own project (vitest.hardening.config.ts) and budget; the
    // Redis tests theirs (vitest.redis.config.ts), run when a Redis answers.
    exclude: [
      ...configDefaults.exclude,
      'src/hardening/**',
      'src/**/*.redis.test.ts',
      // Files that need a real PostgreSQL, for their size (a million rows) or for what only a server
      // does (its connections ended under the app): run with DATABASE_URL.
      ...(process.env.DATABASE_URL ? [] : ['src/**/*.pg.test.ts']),
    ],
    // Each file migrates its own fresh database; that takes a moment on 2 cores.
    testTimeout: 30_000,
    // Every test app logs to files; at the end the run's logs and audit rows are grepped for every
    // password, OTP, token and card number the tests used (src/test/secret-scan.ts).
    globalSetup: ['src/test/secret-scan.global-setup.ts'],
    hookTimeout: 60_000,
  },
});
