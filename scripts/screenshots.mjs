// `npm run screenshots`: pictures of the console for the README, made from the demo data so they stay
// current. Builds the web app if its sources changed, starts the API on a temporary embedded database
// with the demo data set, signs in, and saves 1280x800 PNGs of a few screens into docs/screenshots/.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { animationsSettled, chromiumLaunchOptions, storeConsoleSession } from './chromium.mjs';
import { apiServerEntry, buildApiIfStale } from './api-build.mjs';
import { buildWebIfStale } from './web-build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'docs/screenshots');
const port = Number(process.env.SCREENSHOTS_PORT ?? 3195);
const base = `http://127.0.0.1:${port}`;
const admin = { email: 'admin@example.com', password: 'Screenshots-Passw0rd' };
const viewport = { width: 1280, height: 800 };
const maxBytes = 200 * 1024;

buildWebIfStale();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'screenshots-'));
let serverLog = '';
await buildApiIfStale();
const server = spawn(process.execPath, ['--enable-source-maps', apiServerEntry], {
  cwd: root,
  env: {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: base,
    DATA_DIR: dataDir,
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    DEMO_DATA: '1',
    // The pictures show the demo data as seeded, the same on every run.
    DEMO_FLEET: '0',
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});
server.stdout.on('data', (chunk) => (serverLog += chunk));
server.stderr.on('data', (chunk) => (serverLog += chunk));

const api = async (token, url) => {
  const res = await fetch(`${base}${url}`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
  return (await res.json()).data;
};

let browser;
try {
  // The demo data set is loaded before the server listens; on 2 busy cores that takes a while.
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (server.exitCode !== null || i > 600) throw new Error(`the server did not start:\n${serverLog}`);
    await new Promise((r) => setTimeout(r, 500));
  }

  const login = await fetch(`${base}/api/v1/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(admin),
  });
  const { data } = await login.json();
  const token = data.accessToken;
  // A device with something on every card: the newest paid-up one that has doctors.
  const { allDevices } = await api(token, '/api/v1/admin/machine?page=1&limit=25');
  let device = allDevices[0];
  const paidFirst = [...allDevices].sort(
    (a, b) => Number(b.subscriptionStatus === 2) - Number(a.subscriptionStatus === 2),
  );
  for (const candidate of paidFirst) {
    const doctors = await api(
      token,
      `/api/v1/admin/doctor/all?page=1&limit=1&machineNumber=${encodeURIComponent(candidate.machineNumber)}`,
    );
    if (doctors?.data?.length) {
      device = candidate;
      break;
    }
  }

  browser = await chromium.launch(chromiumLaunchOptions);
  const context = await browser.newContext({ viewport, timezoneId: 'Europe/Berlin', locale: 'en-GB' });
  const page = await context.newPage();
  await storeConsoleSession(page, base, data, 'Europe/Berlin');

  mkdirSync(outDir, { recursive: true });
  const shoot = async (name, url, ready) => {
    await page.goto(`${base}${url}`);
    await ready();
    await page.waitForLoadState('networkidle');
    await animationsSettled(page);
    const file = path.join(outDir, `${name}.png`);
    await page.screenshot({ path: file });
    const size = statSync(file).size;
    console.log(`${path.relative(root, file)}  ${(size / 1024).toFixed(0)} kB`);
    if (size > maxBytes) throw new Error(`${name}.png is ${size} bytes, over the ${maxBytes} limit`);
  };

  await shoot('device-list', '/admin/device', () =>
    page.getByRole('row').nth(10).waitFor({ timeout: 30_000 }),
  );
  await shoot('device-details', `/admin/device-details/${device._id}`, async () => {
    await page.getByRole('heading', { level: 1, name: 'Device Details' }).waitFor();
    await page.getByRole('heading', { name: 'Enrolment' }).waitFor();
    await page
      .getByText(/^(Enrolled|Not enrolled|Revoked)$/)
      .first()
      .waitFor();
    await page.getByRole('tabpanel').getByRole('row').nth(1).waitFor();
  });
  await shoot('admin-logs', '/admin/logs-management', () =>
    page.getByRole('row').nth(5).waitFor({ timeout: 30_000 }),
  );
} finally {
  await browser?.close();
  server.kill();
  await new Promise((r) => (server.exitCode !== null ? r() : server.once('exit', r)));
  rmSync(dataDir, { recursive: true, force: true });
}
