import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

// The hardening suites (fuzz, payments, faults, load): `npm run test:hardening`, and once in `npm test`.
// Not part of the `api` project, so the ordinary unit run never runs them (twice, or with the
// wrong budget). One file at a time: the load and fault suites measure the machine, and a fuzz run
// beside them would distort their figures on 2 cores.
export default defineProject({
  // Run as `vitest -c apps/api/vitest.hardening.config.ts` from the repository root: anchor here.
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    name: 'hardening',
    environment: 'node',
    include: ['src/hardening/**/*.hardening.test.ts'],
    fileParallelism: false,
    testTimeout: 600_000,
    hookTimeout: 120_000,
    // Their published figures (a sign-in burst's time, CPU per route) are at the production
    // password cost, not the least one other test apps hash at (src/test/test-app.ts).
    env: { TEST_PASSWORD_HASH: 'owasp' },
  },
});
