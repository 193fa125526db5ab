// `npm run bench:fast-loop -- --base <git ref> [--rounds 3]`: how long `npm run test:fast` takes
// here against the tree at <ref>, on this machine, now. These shared 2-core machines drift by a
// fifth within an hour, so a time means little alone: the two trees run in turns (here first, then
// the base; the next round the other way round), and each round gives a ratio. Prints every run and
// the median ratio; writes bench/results/fast-loop-<date>.json. The base tree is a git worktree in
// the OS's temporary directory with its own `npm ci`, kept for the next run with the same commit.
// CPU time (user and system, of the run and all it started) is read on Linux only.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { median } from './stats.ts';

const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: { base: { type: 'string' }, rounds: { type: 'string', default: '3' } },
});
if (!values.base) {
  console.error('usage: npm run bench:fast-loop -- --base <git ref> [--rounds 3]');
  process.exit(2);
}
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) {
  console.error(`--rounds must be a whole number of at least 1, not "${values.rounds}"`);
  process.exit(2);
}

const git = (...args) => execFileSync('git', args, { cwd: here, encoding: 'utf8' }).trim();
const baseCommit = git('rev-parse', '--verify', `${values.base}^{commit}`);
const headCommit = git('rev-parse', 'HEAD');
const changed = git('status', '--porcelain') !== '';

function baseTree() {
  const dir = path.join(os.tmpdir(), `fast-loop-base-${baseCommit.slice(0, 12)}`);
  if (!existsSync(dir)) {
    git('worktree', 'prune');
    git('worktree', 'add', '--detach', dir, baseCommit);
  }
  if (!existsSync(path.join(dir, 'node_modules'))) {
    console.log(`npm ci in ${dir} ...`);
    execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'ignore' });
  }
  return dir;
}

/** CPU-seconds of this process's finished children, from /proc (Linux); null elsewhere. */
function childrenCpuSeconds() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    // After the name: state is field 3; cutime and cstime are fields 16 and 17, in clock ticks
    // (USER_HZ, which Linux reports as 100 on every architecture).
    const ticks = Number(fields[16 - 3]) + Number(fields[17 - 3]);
    return ticks / 100;
  } catch {
    return null;
  }
}

function runFastLoop(cwd) {
  return new Promise((resolve, reject) => {
    const cpuBefore = childrenCpuSeconds();
    const started = performance.now();
    const child = spawn('npm', ['run', 'test:fast'], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = (performance.now() - started) / 1000;
      const cpuAfter = childrenCpuSeconds();
      const tests = /Tests\s+(?:(\d+) failed \| )?(\d+) passed/.exec(output);
      if (code !== 0 || !tests || tests[1]) {
        reject(new Error(`npm run test:fast failed in ${cwd} (exit ${code}):\n${output.slice(-3000)}`));
        return;
      }
      const cpu = cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore;
      resolve({
        seconds: +seconds.toFixed(1),
        cpuSeconds: cpu === null ? null : +cpu.toFixed(1),
        tests: +tests[2],
      });
    });
  });
}

const base = baseTree();
console.log(
  `fast loop: here (${headCommit.slice(0, 7)}${changed ? ' + changes' : ''}) against ${baseCommit.slice(0, 7)}`,
);
const results = [];
for (let round = 1; round <= rounds; round++) {
  const order = round % 2 ? ['here', 'base'] : ['base', 'here'];
  const runs = {};
  for (const which of order) runs[which] = await runFastLoop(which === 'here' ? here : base);
  const ratio = +(runs.here.seconds / runs.base.seconds).toFixed(3);
  results.push({ round, here: runs.here, base: runs.base, ratio });
  const cpu = (run) => (run.cpuSeconds === null ? '' : `, ${run.cpuSeconds} CPU-s`);
  console.log(
    `round ${round}: here ${runs.here.seconds} s${cpu(runs.here)} (${runs.here.tests} tests), ` +
      `base ${runs.base.seconds} s${cpu(runs.base)} (${runs.base.tests} tests), ratio ${ratio}`,
  );
}
const summary = {
  date: new Date().toISOString(),
  machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model ?? null, loadAverage: os.loadavg() },
  here: { commit: headCommit, uncommittedChanges: changed },
  base: { ref: values.base, commit: baseCommit },
  rounds: results,
  medianRatio: +median(results.map((r) => r.ratio)).toFixed(3),
  medianSecondsHere: median(results.map((r) => r.here.seconds)),
  medianSecondsBase: median(results.map((r) => r.base.seconds)),
};
console.log(
  `median ratio ${summary.medianRatio}; median here ${summary.medianSecondsHere} s, base ${summary.medianSecondsBase} s`,
);
mkdirSync(path.join(here, 'bench/results'), { recursive: true });
const file = path.join(here, `bench/results/fast-loop-${summary.date.slice(0, 10)}.json`);
writeFileSync(file, `${JSON.stringify(summary, null, 2)}\n`);
console.log(`written: ${path.relative(here, file)}`);
