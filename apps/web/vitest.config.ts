import { defineProject, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

export default mergeConfig(
  viteConfig,
  defineProject({
    test: {
      name: 'web',
      // jsdom, with computed styles worked out when read (src/test/jsdom-environment.ts).
      environment: './src/test/jsdom-environment.ts',
      // A fresh jsdom per file in a VM context of a kept worker thread: half the CPU of a new worker
      // per file (a jsdom environment there cost 0.6 s a file). jsdom alone is then the whole global
      // scope, so test/setup.ts adds the streams browsers have and jsdom lacks. The fast loop runs
      // these files in threads that keep one window and the dependencies instead (decision 062).
      pool: 'vmThreads',
      include: ['src/**/*.test.{ts,tsx}'],
      setupFiles: ['./src/test/setup.ts'],
      restoreMocks: true,
      // Lazy routes compile on first use; on a busy 2-core machine a first render can take seconds.
      testTimeout: 20_000,
    },
  }),
);
