// `npm run test:hardening`: the hardening suites (apps/api/vitest.hardening.config.ts), then
// docs/reliability.md from their result files, written even when a suite failed (a failed suite
// records passed: false and the report shows it). Exit code: the suites', or the report's.
// Extra arguments go to vitest, e.g. `npm run test:hardening -- fuzz` to run one suite.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const suites = spawnSync('npx', ['vitest', 'run', '-c', 'apps/api/vitest.hardening.config.ts', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
const report = spawnSync(process.execPath, ['scripts/reliability-report.mjs'], { cwd: root, stdio: 'inherit' });
process.exit(suites.status || report.status || 0);
