import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/*
 * The baseline of `npm run bench:licence`: the heartbeat with licences off. By default this
 * checkout's committed API (HEAD) with the one licence step of the heartbeat taken out (its answer's
 * licenceVersion is 0, never looked up: licencesOff below), so the two differ by the licence alone;
 * comparing with the API from before the licence tokens (BENCH_BASELINE_REF=<commit>, unpatched)
 * also counted everything that landed since (commands, windows, settings). It runs on the same database as the
 * current API (its migrations are a prefix of today's, so it migrates nothing), so both answer the
 * same machines with the same credentials. No `npm ci`: the extracted tree links to this checkout's
 * node_modules, except the workspace packages (@app/...), which it takes from the commit itself.
 */

const git = (root: string, ...args: string[]) =>
  execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();

/** The commit the baseline is built from, and how it was chosen. */
export function baselineCommit(root: string) {
  const ref = process.env.BENCH_BASELINE_REF;
  if (ref)
    return {
      commit: git(root, 'rev-parse', '--verify', `${ref}^{commit}`),
      chosenBy: ref,
      licencesOff: false,
    };
  if (git(root, 'status', '--porcelain', '--', 'apps/api', 'packages'))
    console.error('warning: apps/api or packages differ from HEAD: the baseline is built from HEAD');
  return { commit: git(root, 'rev-parse', 'HEAD'), chosenBy: 'HEAD with licences off', licencesOff: true };
}

/** The heartbeat's licence step, as check-in-routes.ts has it: replaced by 0 in the baseline. */
const licenceStep = 'licenceVersions.peek(deviceId) ?? (await licenceVersions.get(deviceId))';

/** Takes the licence step out of the extracted tree's heartbeat; throws when the code moved on. */
function licencesOff(dir: string) {
  const file = path.join(dir, 'apps/api/src/modules/device-api/check-in-routes.ts');
  const source = readFileSync(file, 'utf8');
  if (!source.includes(licenceStep))
    throw new Error(
      `bench/licence-baseline.ts: ${file} no longer has \`${licenceStep}\`: update licenceStep`,
    );
  writeFileSync(file, source.replace(licenceStep, '0'));
}

/** Extracts `commit` into a temporary directory and builds its API; `remove` deletes it again. */
export function buildBaseline(root: string, commit: string, withLicencesOff: boolean) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-licence-baseline-'));
  execFileSync(
    'sh',
    [
      '-c',
      `git archive --format=tar "$0" apps/api packages tools scripts package.json package-lock.json tsconfig.base.json | tar -x -C "$1"`,
      commit,
      dir,
    ],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (withLicencesOff) licencesOff(dir);
  const modules = path.join(dir, 'node_modules');
  mkdirSync(path.join(modules, '@app'), { recursive: true });
  for (const name of readdirSync(path.join(root, 'node_modules'))) {
    if (name !== '@app') symlinkSync(path.join(root, 'node_modules', name), path.join(modules, name));
  }
  for (const name of readdirSync(path.join(dir, 'packages')))
    symlinkSync(path.join(dir, 'packages', name), path.join(modules, '@app', name));
  // The API's demo fleet runs the simulator's machines (decision 071); older commits have no tools/.
  const simulator = path.join(dir, 'tools/fleet-simulator');
  if (existsSync(simulator)) symlinkSync(simulator, path.join(modules, '@app', 'fleet-simulator'));
  execFileSync(process.execPath, [path.join(dir, 'scripts/api-build.mjs')], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return {
    dir,
    serverEntry: path.join(dir, 'apps/api/dist/server.js'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
