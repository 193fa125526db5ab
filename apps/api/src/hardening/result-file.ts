import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot, testOutputDir } from '../test/test-output.ts';

export type Figure = { name: string; value: number | string; unit?: string; target?: string };

/** The one shape every hardening suite writes; scripts/reliability-report.mjs reads nothing else. */
export type HardeningResult = {
  suite: string;
  title: string;
  ranAt: string;
  passed: boolean;
  figures: Figure[];
  notes?: string[];
  commit?: string;
  database?: string;
};

// A test run never changes tracked files: suites write here, and `npm run report` copies the files
// into bench/results/hardening/ and rewrites docs/reliability.md from them.
export const resultsDir = path.join(testOutputDir, 'hardening');

function currentCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

/**
 * Writes .test-output/hardening/<suite>.json. `commit` and `database` are filled in when the suite
 * does not set them, so every section of docs/reliability.md says where its figures came from.
 */
export function writeHardeningResult(
  result: Omit<HardeningResult, 'ranAt' | 'commit' | 'database'> & Partial<HardeningResult>,
): string {
  const full: HardeningResult = {
    ranAt: new Date().toISOString(),
    commit: currentCommit(),
    database: process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite (embedded)',
    ...result,
  };
  mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `${full.suite}.json`);
  writeFileSync(file, `${JSON.stringify(full, null, 2)}\n`);
  return file;
}
