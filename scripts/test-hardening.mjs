// `npm run test:hardening`: the hardening suites (apps/api/vitest.hardening.config.ts), which write
// their result files to .test-output/hardening/, then a check of those files (the report they would
// give goes to .test-output/reliability.md; a failed suite records passed: false and shows there).
// Nothing tracked changes: `npm run report` publishes the results and docs/reliability.md.
// Exit code: the suites', or the check's.
// Extra arguments go to vitest, e.g. `npm run test:hardening -- fuzz` to run one suite. When a
// PostgreSQL answers (scripts/local-services.mjs), the fuzz suite runs once more on it.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { testPostgresAvailable, testPostgresUrl } from './local-services.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const vitest = (args, env = {}) =>
  spawnSync('npx', ['vitest', 'run', '-c', 'apps/api/vitest.hardening.config.ts', ...args], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
const args = process.argv.slice(2);
const suites = vitest(args);
const fuzzRan = args.length === 0 || args.includes('fuzz');
const fuzzOnPostgres =
  fuzzRan && (await testPostgresAvailable())
    ? vitest(['fuzz'], { DATABASE_URL: testPostgresUrl })
    : { status: 0 };
const report = spawnSync(process.execPath, ['scripts/reliability-report.mjs', '--check'], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(suites.status || fuzzOnPostgres.status || report.status || 0);
