import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'api',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // Each file migrates its own fresh database; that takes a moment on 2 cores.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
