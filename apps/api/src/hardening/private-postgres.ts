import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/*
 * A PostgreSQL cluster of the suite's own (initdb + pg_ctl), so a test may stop and start the
 * server under a running API without touching the shared one. Postgres refuses to run as root, so
 * when the suite runs as root the commands run as the `postgres` user on a directory it owns.
 */

const binDir = process.env.PG_BIN_DIR ?? '/usr/local/bin';
const asRoot = process.getuid?.() === 0;

const command = (bin: string, args: string[]): [string, string[]] => {
  const cmd = path.join(binDir, bin);
  return asRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
};
const run = (bin: string, args: string[]) =>
  execFileSync(...command(bin, args), {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
  });
// Stop and start run while the test's own clients keep sending: they must not block its event loop.
const runAsync = async (bin: string, args: string[]) =>
  void (await promisify(execFile)(...command(bin, args), { timeout: 120_000 }));

export type PrivatePostgres = {
  url: string;
  port: number;
  stop: () => Promise<void>;
  start: () => Promise<void>;
  destroy: () => void;
};

export function privatePostgresAvailable(): boolean {
  return existsSync(path.join(binDir, 'initdb')) && existsSync(path.join(binDir, 'pg_ctl'));
}

export function createPrivatePostgres(port: number): PrivatePostgres {
  const root = mkdtempSync(path.join(os.tmpdir(), 'hardening-pg-'));
  const dataDir = path.join(root, 'data');
  const log = path.join(root, 'server.log');
  if (asRoot) {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(root, id('-u'), id('-g'));
  }
  // --no-sync and fsync=off: a throwaway cluster; durability is the kill suite's subject, not this one's.
  run('initdb', [
    '-D',
    dataDir,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--no-sync',
    '--no-instructions',
  ]);
  const options = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
  const startArgs = ['-D', dataDir, '-o', options, '-l', log, '-w', '-t', '60', 'start'];
  const start = () => runAsync('pg_ctl', startArgs);
  // Fast shutdown: open sessions are terminated at once, as in a failover or a restart by an operator.
  const stop = () => runAsync('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', '-t', '60', 'stop']);
  run('pg_ctl', startArgs);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start,
    stop,
    destroy: () => {
      try {
        run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // Already stopped.
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** The shared PostgreSQL the suites may create throwaway databases on. */
export const sharedPostgresUrl =
  process.env.HARDENING_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A new empty database on the shared server (or `serverUrl`'s) for one suite; `drop()` removes it again. */
export async function createScratchDatabase(
  prefix: string,
  serverUrl = sharedPostgresUrl,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const { default: pg } = await import('pg');
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = async (q: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(q);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}
