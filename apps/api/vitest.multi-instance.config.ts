import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

// The multi-instance suite (issue 36 item 5): real API processes on one PostgreSQL and one Redis
// behind nginx, driven over HTTP. `npm run test:multi-instance`, and `npm test` when nginx,
// PostgreSQL and Redis are there (DATABASE_URL names the server, REDIS_URL the Redis). One file at
// a time: each starts its own processes, and two files side by side would starve each other on 2 cores.
export default defineProject({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    name: 'multi-instance',
    environment: 'node',
    include: ['src/hardening/*.multi-instance.test.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
