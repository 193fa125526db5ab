import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { readApkManifestFile } from './apk-manifest-file.ts';
import { checkApk } from './apk-check.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');
const dir = mkdtempSync(path.join(os.tmpdir(), 'apk-fixture-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the bench's APK fixture (bench/apk-fixture.mjs)", () => {
  it('runs with plain node and writes an APK the server reads', async () => {
    const file = path.join(dir, 'fixture.apk');
    // Plain node, no loader: the script starts itself again under tsx for the contract's TypeScript.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['bench/apk-fixture.mjs', file, '0.25', 'com.treatment.device', '50'],
      { cwd: root, env: { ...process.env, NODE_OPTIONS: '' } },
    );
    expect(stdout).toMatch(
      /fixture\.apk: \d+ bytes, com\.treatment\.device 50 \(5\.0\.0\), sha256 [0-9a-f]{64}/,
    );
    expect(await readApkManifestFile(file)).toMatchObject({
      packageName: 'com.treatment.device',
      versionCode: 50,
    });
    expect((await checkApk(file)).ok).toBe(true);
  });

  it('says how it is used when given a size that is not a number', async () => {
    const run = promisify(execFile)(
      process.execPath,
      ['bench/apk-fixture.mjs', path.join(dir, 'x.apk'), 'ten'],
      {
        cwd: root,
      },
    );
    await expect(run).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining(
        'Usage: node bench/apk-fixture.mjs [file] [megabytes] [package] [versionCode]',
      ),
    });
  });
});
