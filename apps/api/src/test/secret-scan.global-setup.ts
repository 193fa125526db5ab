import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { scanForSecrets } from './secret-scan.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the test apps write their server logs, audit rows and the secrets they saw. */
    apiLogDir: string;
  }
}

/** Fails the run when any secret a test used shows up in any server log or audit row of the run. */
export default function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'api-test-logs-'));
  project.provide('apiLogDir', dir);
  return () => {
    const { hits, secrets, files } = scanForSecrets(dir);
    if (hits.length) {
      const report = path.join(os.tmpdir(), `api-secret-hits-${Date.now()}.json`);
      writeFileSync(report, JSON.stringify(hits, null, 1));
      // The secrets themselves are not printed: the report file names file, line and secret.
      throw new Error(
        `${hits.length} secret(s) found in the API's logs or audit rows (${[...new Set(hits.map((h) => h.file))].join(', ')}); details in ${report}`,
      );
    }
    console.log(`secret scan: ${secrets} secrets checked against ${files} log and audit files, none found`);
    rmSync(dir, { recursive: true, force: true });
  };
}
