import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeBinaryManifest } from '@app/contract/android-manifest-writer';
import { ManifestError } from '@app/contract/apk-manifest';
import { readApkManifestFile } from './apk-manifest-file.ts';
import { buildZip } from './zip-writer.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'apk-manifest-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const onDisk = (bytes: Buffer) => {
  const file = path.join(dir, `${++n}.apk`);
  writeFileSync(file, bytes);
  return file;
};
const manifest = { packageName: 'com.example.eswt', versionCode: 77, versionName: '7.7.0' };
const apk = (data: Uint8Array | string, deflate: boolean, name = 'AndroidManifest.xml') =>
  onDisk(
    buildZip([
      { name: 'classes.dex', data: Buffer.alloc(4096, 1), deflate },
      { name, data, deflate },
      { name: 'resources.arsc', data: Buffer.alloc(512, 2) },
    ]),
  );

describe("an APK's manifest, read from the file", () => {
  it.each([
    ['stored', false],
    ['deflated', true],
  ])('reads package, versionCode and versionName from a %s manifest', async (_, deflate) => {
    expect(await readApkManifestFile(apk(writeBinaryManifest(manifest), deflate))).toEqual(manifest);
  });

  it('refuses an APK without a manifest, with a text manifest, or that is not a ZIP', async () => {
    await expect(readApkManifestFile(apk(writeBinaryManifest(manifest), true, 'Other.xml'))).rejects.toThrow(
      /no AndroidManifest.xml/,
    );
    await expect(readApkManifestFile(apk('<manifest package="x"/>', false))).rejects.toThrow(ManifestError);
    await expect(readApkManifestFile(onDisk(Buffer.from('not a zip at all')))).rejects.toThrow(/not a ZIP/);
  });

  it('refuses a manifest entry that would inflate past what a manifest can be', async () => {
    // 8 MB of zeros deflate to a few kB: the entry's declared size is honest, and too large.
    const bomb = buildZip([
      { name: 'AndroidManifest.xml', data: Buffer.alloc(8 * 1024 * 1024), deflate: true },
    ]);
    await expect(readApkManifestFile(onDisk(bomb))).rejects.toThrow(/too large/);
    // The same, lying about its size: the inflater stops at the limit.
    const liar = Buffer.from(bomb);
    const central = liar.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    liar.writeUInt32LE(1000, central + 24);
    await expect(readApkManifestFile(onDisk(liar))).rejects.toThrow(/larger than a manifest/);
  });
});
