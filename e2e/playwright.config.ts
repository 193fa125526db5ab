import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from '../scripts/chromium.mjs';

const port = Number(process.env.E2E_PORT ?? 3100);
// One fresh data directory per run; workers inherit it through the environment.
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(os.tmpdir(), 'e2e-data-'));

export const e2eAdmin = { email: 'admin@example.com', password: 'E2e-Admin-Passw0rd' };

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  // One folder per port, so runs on different ports never trample each other's artifacts.
  outputDir: `test-results/port-${port}`,
  fullyParallel: false,
  workers: 2,
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : 'list',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'retain-on-failure',
    launchOptions: chromiumLaunchOptions,
  },
  webServer: {
    command: 'node ../scripts/start.mjs',
    url: `http://127.0.0.1:${port}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: process.env.E2E_DATA_DIR,
      ADMIN_EMAIL: e2eAdmin.email,
      ADMIN_PASSWORD: e2eAdmin.password,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
      E2E: '1',
      // Every spec signs in from 127.0.0.1, in parallel: far more than the anonymous limit lets one
      // address do (decision 029); that limit has its own API test.
      ANON_RATE_PER_MINUTE: '100000',
      // A sign-in counts as a step-up by default (decision 070), and the server's clock cannot be
      // moved here: off, every spec's fresh session meets the password prompt, as the specs of the
      // prompt itself need. The API tests hold the default (auth/step-up.test.ts).
      SIGN_IN_STEP_UP: '0',
      // The specs count the demo data as seeded: no demo fleet adding to it (its own API test).
      DEMO_FLEET: '0',
    },
  },
});
