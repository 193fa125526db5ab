import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

// Throttling with its counters in Redis (REDIS_URL; docs/decisions/021 and 073): the store's own
// tests, two API instances sharing one Redis, and the sign-in, code and password-reset throttle
// tests, the anonymous limit's and the machines' limits' again with Redis under them.
// `npm run test:redis`, and `npm test` when a Redis answers.
export default defineProject({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    name: 'redis',
    environment: 'node',
    include: [
      'src/**/*.redis.test.ts',
      'src/modules/auth/sign-in-throttle.test.ts',
      'src/modules/auth/throttle-burst.test.ts',
      'src/modules/auth/auth-routes.test.ts',
      'src/modules/auth/mfa-routes.test.ts',
      'src/modules/account/*.test.ts',
      'src/lib/anonymous-rate-limit.test.ts',
      'src/modules/device-api/device-credential-throttle.test.ts',
      'src/modules/device-api/check-in-routes.test.ts',
    ],
    env: { REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ['src/test/secret-scan.global-setup.ts'],
  },
});
