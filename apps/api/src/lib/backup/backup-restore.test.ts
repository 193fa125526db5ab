import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@app/contract/paths';
import { apiEnv, call, login, startApi, type ApiProcess } from '#api/hardening/api-process.ts';
import { bodyFor, checkAcked, type AckedWrite } from '#api/hardening/write-stream.ts';
import { formatBytes } from '#api/lib/storage/disk-storage.ts';
import { buildDemoApk } from '#api/modules/app-updates/zip-writer.ts';
import { repoRoot } from '#api/test/test-output.ts';
import { writeBackup } from './data-dir-backup.ts';
import { restoreBackup } from './data-dir-restore.ts';

/*
 * npm run backup and npm run restore as an operator runs them, against the real server (node on the
 * compiled bundle, as npm start runs it) on a temporary DATA_DIR: a backup taken while the server
 * answers a stream of writes, restored into a new DATA_DIR that a second server then serves.
 */

let root: string;
beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'backup-restore-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

type Run = { status: number | null; stdout: string; stderr: string };
const npmRun = (script: 'backup' | 'restore', dataDir: string, args: string[], env = {}) =>
  new Promise<Run>((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', `apps/api/src/lib/backup/${script}-cli.ts`, ...args],
      { cwd: repoRoot, env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, ...env } },
    );
    let [stdout, stderr] = ['', ''];
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

/** The server on `dataDir`, keeping the JWT secret it generates there (JWT_SECRET unset). */
const serve = async (dataDir: string) =>
  startApi(
    apiEnv({
      port: await freePort(),
      dataDir,
      env: { JWT_SECRET: '', ROLLOUT_SECOND_ADMIN: '0', ALARM_CHECK_SECONDS: '0' },
    }),
  );

/** Adds machines on two loops until stopped, keeping those the server acknowledged (201). */
function addMachines(url: string, token: string) {
  const acked: AckedWrite[] = [];
  const refused: string[] = [];
  const tag = randomBytes(3).toString('hex');
  let stopped = false;
  let n = 0;
  const loops = [1, 2].map(async () => {
    while (!stopped) {
      const body = bodyFor('device', tag, n++, '');
      const res = await call(url, token, 'POST', apiPaths.machineAdd, body);
      const id = (res.json?.data as { _id?: string } | undefined)?._id;
      if (res.status === 201 && id) acked.push({ kind: 'device', id, body });
      else refused.push(`${res.status} ${res.text.slice(0, 200)}`);
    }
  });
  return {
    acked,
    refused,
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

const sha256 = (data: Buffer | Uint8Array) => createHash('sha256').update(data).digest('hex');
/** A folder's names and its siblings' that begin with its own: what a restore may have touched. */
const around = (dir: string) => ({
  siblings: readdirSync(path.dirname(dir)).filter((n) => n.startsWith(path.basename(dir))),
  inside: readdirSync(dir).sort(),
});

// The two tests run side by side: each mostly waits on processes of its own.
describe.concurrent('npm run backup and npm run restore on the embedded database', () => {
  it('backs up a serving server, restores into a new DATA_DIR, and the restored server has the data', async () => {
    const first = path.join(root, 'first');
    const second = path.join(root, 'second');
    let api: ApiProcess | null = await serve(first);
    try {
      // A sign-in counts as the step-up an upload for every machine asks (decision 070).
      const token = await login(api.url);
      const apk = buildDemoApk('com.example.backup', 3, 2000);
      const boundary = `----backup${randomBytes(8).toString('hex')}`;
      const fields = {
        appName: 'com.example.backup',
        versionCode: '3',
        versionName: '3.0.0',
        remark: 'Before the backup',
        updateDesc: 'Kept by the backup',
        updateType: '1',
      };
      const uploaded = await fetch(`${api.url}${apiPaths.systemUpdates}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
        body: Buffer.concat([
          ...Object.entries(fields).map(([name, value]) =>
            Buffer.from(
              `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
            ),
          ),
          Buffer.from(
            `--${boundary}\r\ncontent-disposition: form-data; name="apk"; filename="backup.apk"\r\ncontent-type: application/octet-stream\r\n\r\n`,
          ),
          apk,
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]),
      });
      expect(uploaded.status, await uploaded.clone().text()).toBe(201);
      const release = ((await uploaded.json()) as { data: { id: string } }).data;

      const stream = addMachines(api.url, token);
      const ackedAtLeast = async (n: number) => {
        while (stream.acked.length < n && stream.refused.length === 0)
          await new Promise((resolve) => setTimeout(resolve, 20));
      };
      await ackedAtLeast(6);
      const ackedBefore = stream.acked.length;
      const out = path.join(root, 'backups', 'online.tar.gz');
      const backup = await npmRun('backup', first, ['--out', out]);
      const ackedAfter = stream.acked.length;
      await ackedAtLeast(ackedAfter + 4);
      await stream.stop();
      expect(backup.status, backup.stderr).toBe(0);
      expect(backup.stdout).toContain('taken by the running server');
      expect(backup.stdout).toContain('1 uploaded file(s)');
      expect(backup.stdout).toContain('the generated JWT secret');
      // The server went on answering while the command ran, and nothing failed.
      expect(stream.refused).toEqual([]);
      expect(ackedAfter).toBeGreaterThan(ackedBefore);
      expect(readdirSync(path.dirname(out))).toEqual(['online.tar.gz']);
      expect(backup.stdout).toContain(`Backup written: ${out} (${formatBytes(statSync(out).size)})`);

      await api.kill('SIGTERM');
      api = null;
      // With no server running the command opens the data directory itself (the same time as the
      // restore of the first backup, to keep the test short: they touch different folders).
      const offlineOut = path.join(root, 'backups', 'offline.tar.gz');
      const [restored, offline] = await Promise.all([
        npmRun('restore', second, [out]),
        npmRun('backup', first, [`--out=${offlineOut}`]),
      ]);
      expect(offline.status, offline.stderr).toBe(0);
      expect(offline.stdout).toContain('taken with no server running');
      expect(restored.status, restored.stderr).toBe(0);
      expect(restored.stdout).toContain(`into ${second}: `);
      expect(restored.stdout).toContain('1 uploaded file(s)');
      expect(restored.stdout).toContain('There was no data there before.');

      // Meanwhile, the offline backup restored over the first DATA_DIR: what was there is kept beside
      // it, and what an earlier restore kept goes.
      const earlier = path.join(root, 'first.before-restore-2020-01-01T00-00-00-000Z');
      mkdirSync(earlier);
      const over = npmRun('restore', first, [offlineOut]);

      api = await serve(second);
      // A restore while a server runs on that DATA_DIR is refused and changes nothing.
      const before = around(second);
      const refusal = npmRun('restore', second, [out]);
      // The same JWT secret came with the backup: the session signed in on the first server goes on.
      expect((await call(api.url, token, 'GET', apiPaths.profile)).status).toBe(200);
      for (const write of stream.acked.slice(0, ackedBefore))
        expect(await checkAcked(api.url, token, write)).toBeNull();
      // Asked for after the backup was taken: not in it. (The first two answered after the command
      // ended may have been written before: two writers, each with one request in flight.)
      for (const write of stream.acked.slice(ackedAfter + 2))
        expect(await checkAcked(api.url, token, write)).toMatch(/GET answered 4\d\d/);
      const download = await fetch(`${api.url}${apiPaths.appUpdateApk(release.id)}`);
      expect(download.status).toBe(200);
      expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(sha256(apk));

      const refused = await refusal;
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain(`A server is running on ${second}: stop it first, then restore.`);
      expect(around(second)).toEqual(before);

      const restoredOver = await over;
      expect(restoredOver.status, restoredOver.stderr).toBe(0);
      const kept = readdirSync(root).filter((n) => n.startsWith('first.'));
      expect(kept).toEqual([expect.stringMatching(/^first\.before-restore-\d{4}-.*Z$/)]);
      expect(kept[0]).not.toBe(path.basename(earlier));
      expect(restoredOver.stdout).toContain(`kept in ${path.join(root, kept[0]!)} until the next restore`);
      expect(readdirSync(path.join(root, kept[0]!)).sort()).toEqual(
        expect.arrayContaining(['files', 'jwt-secret', 'pgdata']),
      );
    } finally {
      await api?.kill('SIGKILL');
    }
  }, 300_000);

  it('refuses a missing, damaged or cut-short backup with a clear message, changing nothing', async () => {
    const dataDir = path.join(root, 'untouched');
    mkdirSync(path.join(dataDir, 'files'), { recursive: true });
    writeFileSync(path.join(dataDir, 'jwt-secret'), 'the installation before');
    const garbage = path.join(root, 'garbage.tar.gz');
    writeFileSync(garbage, Buffer.alloc(4096, 'not a backup'));
    // A backup whose database part is no database: whole as an archive, refused when opened.
    const hollow = path.join(root, 'hollow.tar.gz');
    const source = path.join(root, 'hollow-source');
    mkdirSync(path.join(source, 'files', 'apks'), { recursive: true });
    writeFileSync(path.join(source, 'files', 'apks', `${'a'.repeat(32)}.apk`), Buffer.alloc(100_000, 7));
    await writeBackup({
      dataDir: source,
      storage: 'disk',
      dumpDatabase: async () => new Blob([Buffer.alloc(20_000, 1)]),
      out: hollow,
    });
    const cut = path.join(root, 'cut.tar.gz');
    const whole = readFileSync(hollow);
    writeFileSync(cut, whole.subarray(0, Math.floor(whole.length / 2)));

    const before = around(dataDir);
    const restore = (file: string) =>
      restoreBackup({ file, dataDir, serverRunning: async () => false }).then(
        () => 'restored',
        (error: Error) => error.message,
      );
    expect(await restore(path.join(root, 'no-such.tar.gz'))).toBe(
      `No backup file at ${path.join(root, 'no-such.tar.gz')}.`,
    );
    expect(await restore(cut)).toMatch(
      /cut\.tar\.gz is not a whole backup made by npm run backup: .*(truncated|unexpected end)/,
    );
    expect(await restore(hollow)).toMatch(
      /hollow\.tar\.gz is not a whole backup made by npm run backup: its database part is damaged: /,
    );
    // The commands as an operator meets them: the message, the exit code.
    const [damaged, postgres, usage] = await Promise.all([
      npmRun('restore', dataDir, [garbage]),
      npmRun('backup', dataDir, [], { DATABASE_URL: 'postgres://127.0.0.1:9/none' }),
      npmRun('restore', dataDir, []),
    ]);
    expect(damaged.status).toBe(1);
    expect(damaged.stderr).toBe(
      `${garbage} is not a whole backup made by npm run backup: incorrect header check.\nNothing was changed in ${dataDir}.\n`,
    );
    expect(around(dataDir)).toEqual(before);
    expect(readFileSync(path.join(dataDir, 'jwt-secret'), 'utf8')).toBe('the installation before');
    expect(postgres.status).toBe(1);
    expect(postgres.stderr).toContain('pg_dump --format=custom');
    expect(usage.status).toBe(2);
  }, 120_000);
});
