// `npm run bench:web`: builds the console and reports the gzipped JS and CSS a browser fetches to show
// /login-admin and /admin/device on a cold load, by loading them in Chromium and summing what it asked for.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { buildWebIfStale } from '../scripts/web-build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'apps/web/dist');
const port = Number(process.env.BENCH_PORT ?? 3190);
const base = `http://127.0.0.1:${port}`;
const admin = { email: 'bench@example.com', password: 'Bench-Passw0rd' };
const budgetKb = 100;

buildWebIfStale();
const server = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
  cwd: root,
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'bench-web-')),
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    DEMO_DATA: '0',
    LOG_LEVEL: 'warn',
  },
  stdio: 'ignore',
});
try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (i > 120) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 500));
  }
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const weigh = async (setup, url) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    if (setup) await setup(page);
    const files = new Set();
    page.on('request', (req) => {
      const u = new URL(req.url());
      if (u.origin === base && /\.(js|css)$/.test(u.pathname)) files.add(u.pathname);
    });
    await page.goto(`${base}${url}`, { waitUntil: 'networkidle' });
    await context.close();
    const sizes = { js: 0, css: 0, files: [...files].sort() };
    for (const file of files) {
      const gz = gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
      sizes[file.endsWith('.js') ? 'js' : 'css'] += gz;
    }
    return sizes;
  };
  const signIn = async (page) => {
    const res = await fetch(`${base}/api/v1/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(admin),
    });
    const { data } = await res.json();
    await page.goto(`${base}/api/health`);
    await page.evaluate(
      ([token, details]) =>
        localStorage.setItem(
          'auth',
          JSON.stringify({
            details: { ...details, token, timeZone: 'UTC' },
            toggle: true,
            deviceDetail: {},
            userDetails: details,
          }),
        ),
      [data.accessToken, data.admin],
    );
  };
  const login = await weigh(null, '/login-admin');
  const device = await weigh(signIn, '/admin/device');
  await browser.close();

  const kb = (n) => (n / 1024).toFixed(1);
  const rows = [
    { route: '/login-admin', ...login },
    { route: '/admin/device', ...device },
  ];
  console.log('route            JS gzip kB   CSS gzip kB   files');
  for (const r of rows)
    console.log(`${r.route.padEnd(17)}${kb(r.js).padStart(10)}${kb(r.css).padStart(14)}   ${r.files.length}`);
  const verdict = login.js / 1024 <= budgetKb ? 'within' : 'OVER';
  console.log(`/login-admin JS is ${verdict} the ${budgetKb} kB budget`);
  mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  writeFileSync(
    path.join(root, 'bench/results/web-weight.json'),
    JSON.stringify(
      {
        measuredAt: new Date().toISOString(),
        budgetKbJsLogin: budgetKb,
        routes: rows.map((r) => ({ ...r, jsKb: +kb(r.js), cssKb: +kb(r.css) })),
      },
      null,
      2,
    ) + '\n',
  );
} finally {
  server.kill();
}
