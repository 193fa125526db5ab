import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/*
 * The baseline of `npm run bench:licence`: today's heartbeat, the API as it was just before the
 * licence tokens landed (the parent of the first commit touching modules/licence-tokens, or
 * BENCH_BASELINE_REF), built from that commit's sources. It runs on the same database as the
 * current API (its migrations are a prefix of today's, so it migrates nothing), so both answer the
 * same machines with the same credentials. No `npm ci`: the extracted tree links to this checkout's
 * node_modules, except the workspace packages (@app/...), which it takes from the commit itself.
 */

const git = (root: string, ...args: string[]) =>
  execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();

/** The commit the baseline is built from, and how it was chosen. */
export function baselineCommit(root: string) {
  const ref = process.env.BENCH_BASELINE_REF;
  if (ref) return { commit: git(root, 'rev-parse', '--verify', `${ref}^{commit}`), chosenBy: ref };
  const first = git(root, 'log', '--reverse', '--format=%H', '--', 'apps/api/src/modules/licence-tokens')
    .split('\n')
    .at(0);
  if (!first)
    throw new Error('no commit touches apps/api/src/modules/licence-tokens: set BENCH_BASELINE_REF');
  return {
    commit: git(root, 'rev-parse', `${first}^`),
    chosenBy: `the parent of ${first.slice(0, 7)}, the first commit of modules/licence-tokens`,
  };
}

/** Extracts `commit` into a temporary directory and builds its API; `remove` deletes it again. */
export function buildBaseline(root: string, commit: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-licence-baseline-'));
  execFileSync(
    'sh',
    [
      '-c',
      `git archive --format=tar "$0" apps/api packages scripts package.json package-lock.json tsconfig.base.json | tar -x -C "$1"`,
      commit,
      dir,
    ],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const modules = path.join(dir, 'node_modules');
  mkdirSync(path.join(modules, '@app'), { recursive: true });
  for (const name of readdirSync(path.join(root, 'node_modules'))) {
    if (name !== '@app') symlinkSync(path.join(root, 'node_modules', name), path.join(modules, name));
  }
  for (const name of readdirSync(path.join(dir, 'packages')))
    symlinkSync(path.join(dir, 'packages', name), path.join(modules, '@app', name));
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
