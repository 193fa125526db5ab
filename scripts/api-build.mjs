// Compiles the API to plain JavaScript once its sources change, so production runs `node` on
// apps/api/dist/server.js with no TypeScript loader (issue 14): one ES module bundle of our own
// code and the workspace packages it imports (the contract, the demo data's fake data); every npm
// package stays an import, resolved from node_modules at run time.
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const apiDir = path.join(root, 'apps/api');
export const apiServerEntry = path.join(apiDir, 'dist/server.js');
const inputs = [
  'apps/api/src',
  'apps/api/package.json',
  'packages/contract/src',
  'packages/fake-data/src',
  // The demo fleet runs the fleet simulator's machine code (apps/api/src/demo/demo-fleet.ts).
  'tools/fleet-simulator',
  'package-lock.json',
];
const isSource = (p) => !/\.test\.tsx?$/.test(p) && !p.includes(`${path.sep}hardening${path.sep}`);

function hashInputs() {
  const hash = createHash('sha256');
  const walk = (p) => {
    if (!existsSync(p)) return;
    if (statSync(p).isDirectory()) {
      for (const name of readdirSync(p).sort()) walk(path.join(p, name));
    } else if (isSource(p)) {
      hash.update(path.relative(root, p));
      hash.update(readFileSync(p));
    }
  };
  for (const input of inputs) walk(path.join(root, input));
  return hash.digest('hex');
}

/** Bare imports of npm packages stay imports; the workspace's own (@app/...) are compiled in. */
const packagesStayExternal = {
  name: 'packages-stay-external',
  setup(build) {
    build.onResolve({ filter: /^[^./#]/ }, (args) =>
      args.path.startsWith('@app/') ? undefined : { path: args.path, external: true },
    );
  },
};

/** Builds when the inputs changed since the last build; returns whether it built. */
export async function buildApiIfStale({ quiet = false } = {}) {
  const distDir = path.join(apiDir, 'dist');
  const stampFile = path.join(distDir, '.build-hash');
  const hash = hashInputs();
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === hash) return false;
  if (!quiet) console.log('Building the API...');
  const { build } = await import('esbuild');
  // Built beside, then swapped in whole: test workers and a running server never see half a build.
  const next = `${distDir}.${process.pid}-${Date.now()}`;
  await build({
    entryPoints: [path.join(apiDir, 'src/server.ts')],
    outfile: path.join(next, 'server.js'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    sourcemap: true,
    logLevel: quiet ? 'silent' : 'warning',
    plugins: [packagesStayExternal],
  });
  // db/client.ts finds its migrations next to itself (import.meta.url), here next to the bundle.
  cpSync(path.join(apiDir, 'src/db/migrations'), path.join(next, 'migrations'), { recursive: true });
  writeFileSync(path.join(next, '.build-hash'), hash);
  const old = `${next}.old`;
  try {
    renameSync(distDir, old);
  } catch {
    // None yet, or another process moved it first.
  }
  try {
    renameSync(next, distDir);
  } catch (err) {
    // Another process swapped its identical build in first: keep that one.
    if (!existsSync(distDir)) throw err;
    rmSync(next, { recursive: true, force: true });
  }
  rmSync(old, { recursive: true, force: true });
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildApiIfStale();
