// Shared by the benches that run the API in process against a PostgreSQL database of their own
// (bench:dashboard, bench:map): where that database is, and the API's config, schema and first admin.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bootstrap } from '../apps/api/src/bootstrap.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import { openDatabase } from '../apps/api/src/db/client.ts';

/** BENCH_DATABASE_URL (else DATABASE_URL, else the local server) with BENCH_DB_NAME or `defaultName`. */
export function benchDatabase(defaultName) {
  const serverUrl =
    process.env.BENCH_DATABASE_URL ??
    process.env.DATABASE_URL ??
    'postgres://postgres@127.0.0.1:5432/postgres';
  const name = process.env.BENCH_DB_NAME ?? defaultName;
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { serverUrl, name, url };
}

/** The API's config for a bench (production mode, no demo data), its migrated database and first admin. */
export async function openBenchApi({ url, tag, offlineMinutes }) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `bench-${tag}-`));
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    DATABASE_URL: url.toString(),
    ADMIN_EMAIL: `bench-${tag}@example.com`,
    // As the benches named them before: a database kept from an earlier run still signs in.
    ADMIN_PASSWORD: `Bench-${tag[0].toUpperCase()}${tag.slice(1)}-Passw0rd`,
    DEMO_DATA: '0',
    PAYMENT_PROVIDER: 'demo',
    MAIL_TRANSPORT: 'outbox',
    LOG_LEVEL: 'warn',
    // The requests alone: the fleet-wide jobs (alarm checks, licence sweeps) would take the cores,
    // and rewrite rows, in the middle of the timed requests.
    RUN_JOBS: '0',
    DEVICE_OFFLINE_MINUTES: String(offlineMinutes),
    WEB_DIST: path.join(dataDir, 'no-web'),
  });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: null });
  await bootstrap(database.db, { adminEmail: config.adminEmail, adminPassword: config.adminPassword });
  return { config, database };
}
