import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'fake-data', environment: 'node', include: ['src/**/*.test.ts'] },
});
