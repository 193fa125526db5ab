// `npm run dev`: the API (tsx watch, restarts on a change) and the console (Vite, hot reload) in one
// terminal. Vite serves http://localhost:5173 and proxies /api to the API on port 3300
// (apps/web/vite.config.ts). Each line is prefixed with [api] or [web]; Ctrl-C stops both, and
// when either stops on its own the other is stopped too.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const apiPort = '3300'; // the port vite.config.ts proxies /api to
const webPort = process.env.WEB_PORT ?? '5173';
const color = process.stdout.isTTY;

const processes = [
  {
    name: 'api',
    tint: 36,
    args: [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'watch', 'apps/api/src/server.ts'],
    env: {
      NODE_ENV: 'development',
      // Links the API writes (payment links, the printed sign-in address) point at the Vite server.
      PUBLIC_URL: `http://localhost:${webPort}`,
      ...process.env,
      PORT: apiPort,
    },
  },
  {
    name: 'web',
    tint: 35,
    args: [path.join(root, 'node_modules/vite/bin/vite.js'), '--port', webPort, '--strictPort'],
    cwd: path.join(root, 'apps/web'),
    env: process.env,
  },
];

const children = processes.map(({ name, tint, args, cwd = root, env }) => {
  // Its own process group, so stopping it also stops what it started (tsx's node, esbuild).
  const child = spawn(process.execPath, args, {
    cwd,
    env: color ? { FORCE_COLOR: '1', ...env } : env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const prefix = color ? `\x1b[${tint}m[${name}]\x1b[0m ` : `[${name}] `;
  for (const stream of [child.stdout, child.stderr]) {
    const target = stream === child.stdout ? process.stdout : process.stderr;
    createInterface({ input: stream }).on('line', (line) => target.write(`${prefix}${line}\n`));
  }
  return { name, child };
});

let stopping = false;
let exitCode = 0;
function stopAll(code) {
  if (stopping) return;
  stopping = true;
  exitCode = code;
  for (const { child } of children) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // Already gone between the check and the signal.
    }
  }
  // A process that ignores SIGTERM must not keep the terminal: force it after a grace period.
  setTimeout(() => {
    for (const { child } of children)
      if (child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // Gone meanwhile.
        }
      }
  }, 5000).unref();
}

for (const { name, child } of children)
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`[${name}] stopped (${signal ?? `exit code ${code}`}); stopping the other one`);
      stopAll(code || 1);
    }
    if (children.every(({ child: c }) => c.exitCode !== null || c.signalCode !== null))
      process.exit(exitCode);
  });

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => stopAll(0));
