// `npm start`: build the console and the API if their sources changed, then serve both on one
// port. Production runs the compiled API (apps/api/dist): no TypeScript loader at run time.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiServerEntry, buildApiIfStale } from './api-build.mjs';
import { buildWebIfStale } from './web-build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// E2E runs in parallel worktrees build into their own WEB_DIST and skip this step.
if (process.env.SKIP_WEB_BUILD !== '1') buildWebIfStale();
await buildApiIfStale();

const child = spawn(process.execPath, ['--enable-source-maps', apiServerEntry], {
  cwd: root,
  stdio: 'inherit',
  env: { NODE_ENV: 'production', ...process.env },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
