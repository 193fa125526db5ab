// Builds the web app only when its inputs changed since the last build, so a second start is quick.
import { createHash } from 'node:crypto';
import { execSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const inputs = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'packages/contract/src',
  'package-lock.json',
  // The SBOM the build writes beside the console (apps/web's build script).
  'scripts/sbom.mjs',
];
const distDir = path.join(root, 'apps/web/dist');
const stampFile = path.join(distDir, '.build-hash');

function hashInputs() {
  const hash = createHash('sha256');
  const walk = (p) => {
    if (!existsSync(p)) return;
    const stat = statSync(p);
    if (stat.isDirectory()) {
      for (const name of readdirSync(p).sort()) walk(path.join(p, name));
    } else {
      hash.update(path.relative(root, p));
      hash.update(readFileSync(p));
    }
  };
  for (const input of inputs) walk(path.join(root, input));
  // Build-time settings change the bundle too.
  for (const key of Object.keys(process.env)
    .filter((k) => k.startsWith('VITE_'))
    .sort())
    hash.update(`${key}=${process.env[key]}`);
  return hash.digest('hex');
}

export function buildWebIfStale({ quiet = false } = {}) {
  const hash = hashInputs();
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === hash) {
    if (!quiet) console.log('Web app is up to date.');
    return false;
  }
  console.log('Building the web app...');
  execSync('npm run build -w apps/web', { cwd: root, stdio: quiet ? 'ignore' : 'inherit' });
  writeFileSync(stampFile, hash);
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) buildWebIfStale();
