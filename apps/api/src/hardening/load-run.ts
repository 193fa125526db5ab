import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { AdminClient } from '@app/fleet-simulator/admin-client';
import { DeviceClient } from '@app/fleet-simulator/device-client';
import { apiEnv, hardeningAdmin, login, startApi, type ApiProcess } from './api-process.ts';
import { createScratchDatabase } from './private-postgres.ts';

/*
 * The load and soak runs share this: a PostgreSQL-backed real server holding the demo data set plus
 * a few thousand devices, the memory probe preloaded into it, and autocannon in a second process.
 */

const here = path.dirname(fileURLToPath(import.meta.url));

export type LoadTarget = {
  api: ApiProcess;
  token: string;
  deviceIds: string[];
  /** Credentials of enrolled machines: the mix includes their heartbeats and log batches. */
  credentials: string[];
  memoryFile: string;
  devices: number;
  close: () => Promise<void>;
};

/** `exposeGc`: the probe collects garbage before each sample (the soak's live-heap figure). */
export async function prepareLoadTarget(opts: {
  port: number;
  extraDevices: number;
  memoryEveryMs: number;
  exposeGc?: boolean;
}): Promise<LoadTarget> {
  const scratch = await createScratchDatabase('load');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'load-'));
  const memoryFile = path.join(dataDir, 'memory.jsonl');
  let api: ApiProcess | null = null;
  try {
    api = await startApi(
      apiEnv({
        port: opts.port,
        dataDir,
        env: {
          DATABASE_URL: scratch.url,
          DEMO_DATA: '1',
          DEMO_FLEET: '0',
          MEMORY_PROBE_FILE: memoryFile,
          MEMORY_PROBE_MS: String(opts.memoryEveryMs),
          LOG_LEVEL: 'error',
          // The machines are enrolled from this one address, and each sends many calls a second.
          ANON_RATE_PER_MINUTE: '100000',
          DEVICE_RATE_PER_MINUTE: '100000',
        },
      }),
      {
        nodeArgs: [
          ...(opts.exposeGc ? ['--expose-gc'] : []),
          '--import',
          path.join(here, 'memory-probe.mjs'),
        ],
      },
    );
    const db = new pg.Client({ connectionString: scratch.url });
    await db.connect();
    try {
      // Bulk rows beside the demo set, so lists page through thousands, not sixty.
      await db.query(
        `insert into devices (machine_number, serial_number, location, latitude, longitude, city, country, address, status)
         select 'BULK-' || i, 'BSN-' || i, 'Bulk ward ' || (i % 50), (i % 170) - 85, (i % 340) - 170, 'Munich', 'Germany', 'Bulk street ' || i, 1 + (i % 2)
         from generate_series(1, $1::int) as i`,
        [opts.extraDevices],
      );
      const ids = (
        await db.query<{ id: string }>(`select id from devices order by random() limit 500`)
      ).rows.map((r) => r.id);
      const total = (await db.query<{ n: number }>(`select count(*)::int as n from devices`)).rows[0]!.n;
      const token = await login(api.url);
      const credentials = await enrolMachines(api.url, ids.slice(0, enrolledMachines));
      const started = api;
      return {
        api: started,
        token,
        deviceIds: ids,
        credentials,
        memoryFile,
        devices: total,
        close: async () => {
          await started.kill('SIGTERM');
          await scratch.drop();
          rmSync(dataDir, { recursive: true, force: true });
        },
      };
    } finally {
      await db.end();
    }
  } catch (error) {
    await api?.kill('SIGKILL');
    await scratch.drop();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** Machines of the load target that send heartbeats and log batches through the device API. */
const enrolledMachines = 50;

/** Enrols the devices through the real routes with the reference client: a code from the console, traded by the machine. */
async function enrolMachines(url: string, deviceIds: string[]): Promise<string[]> {
  const admin = new AdminClient({ baseUrl: url }, hardeningAdmin.email, hardeningAdmin.password);
  const credentials: string[] = [];
  for (const id of deviceIds) {
    const machine = new DeviceClient({ baseUrl: url });
    credentials.push((await machine.enrol((await admin.issueEnrolmentCode(id)).code)).credential);
  }
  return credentials;
}

/** The parts of autocannon's result the suites read. */
export type LoadResult = {
  requests: { total: number; average: number };
  latency: { p50: number; p90: number; p99: number; p99_9: number; max: number; average: number };
  throughput: { average: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
  '4xx': number;
  '5xx': number;
  duration: number;
  statusCodeStats: Record<string, { count: number }>;
};

/** Runs autocannon in its own node process against the target; resolves with its summary. */
export function runLoad(
  target: Pick<LoadTarget, 'api' | 'token' | 'deviceIds' | 'credentials'>,
  seconds: number,
  connections: number,
): Promise<LoadResult> {
  const settings = JSON.stringify({
    url: target.api.url,
    token: target.token,
    deviceIds: target.deviceIds,
    credentials: target.credentials,
    seconds,
    connections,
  });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(here, 'load-client.mjs'), settings], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`load client exited ${code}: ${err.slice(-2000)}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').pop()!) as LoadResult);
      } catch (error) {
        reject(
          new Error(`load client printed no result: ${String(error)} ${out.slice(-500)} ${err.slice(-500)}`),
        );
      }
    });
  });
}

export type MemorySample = { t: number; rss: number; heapUsed: number; heapTotal: number; external: number };

export function readMemorySamples(file: string): MemorySample[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as MemorySample);
}

export const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
