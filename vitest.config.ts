import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/contract', 'packages/fake-data', 'apps/api', 'apps/web'],
  },
});
