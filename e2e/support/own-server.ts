import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export type OwnServer = { baseURL: string; stop(): void };

/** The address of a spec's own server: known before it starts, for `test.use({ baseURL })`. */
export const ownServerUrl = (portOffset: number) =>
  `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3100) + portOffset}`;

/**
 * A console server of a spec's own (`npm start`'s script, its own empty embedded database), for
 * specs that change what others rely on (the admin's password) or need other settings (a short
 * idle timeout, a real SMTP peer). `portOffset` keeps it off the shared e2e server's port and off
 * other specs' servers.
 */
export async function startOwnServer(opts: {
  name: string;
  portOffset: number;
  admin: { email: string; password: string };
  env?: Record<string, string>;
}): Promise<OwnServer> {
  const baseURL = ownServerUrl(opts.portOffset);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `e2e-${opts.name}-`));
  let log = '';
  const server = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: new URL(baseURL).port,
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_EMAIL: opts.admin.email,
      ADMIN_PASSWORD: opts.admin.password,
      PUBLIC_URL: baseURL,
      DEMO_DATA: '0',
      LOG_LEVEL: 'warn',
      ...opts.env,
    },
  });
  server.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  server.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const stop = () => {
    server.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 150_000;
  for (;;) {
    if (server.exitCode !== null) {
      stop();
      throw new Error(`${opts.name} e2e server exited:\n${log}`);
    }
    if (
      await fetch(`${baseURL}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { baseURL, stop };
    if (Date.now() > deadline) {
      stop();
      throw new Error(`${opts.name} e2e server did not start:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
