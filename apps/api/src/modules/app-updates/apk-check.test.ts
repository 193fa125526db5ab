import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { craftZip, manifestEntry } from '#api/test/crafted-zip.ts';
import { checkApk, defaultApkLimits, isUnsafeEntryName, type ApkLimits } from './apk-check.ts';
import { buildDemoApk } from './zip-writer.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'apk-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const check = (bytes: Buffer, limits?: ApkLimits) => {
  const file = path.join(dir, `${n++}.apk`);
  writeFileSync(file, bytes);
  return checkApk(file, limits);
};

describe('checkApk', () => {
  it('accepts an APK-shaped ZIP and reports its entries and unpacked size', async () => {
    const apk = buildDemoApk('com.example.ok', 3, 1000);
    expect(await check(apk)).toEqual({ ok: true, entries: 4, uncompressedBytes: expect.any(Number) });
  });

  it('refuses a tiny file whose entries declare gigabytes, from the directory alone', async () => {
    // 3 entries of 1.5 GB each, declared; the file itself is a few hundred bytes.
    const bomb = craftZip([
      manifestEntry,
      ...[1, 2, 3].map((i) => ({ name: `assets/${i}.bin`, uncompressed: 1_500_000_000 })),
    ]);
    expect(bomb.length).toBeLessThan(1000);
    expect(await check(bomb)).toMatchObject({ ok: false, reason: 'too-large-uncompressed' });
    // The limit is the configured one, not a constant.
    const small = craftZip([manifestEntry, { name: 'assets/a.bin', data: Buffer.alloc(5000) }]);
    expect(await check(small)).toMatchObject({ ok: true });
    expect(await check(small, { maxEntries: 10, maxUncompressedBytes: 4096 })).toMatchObject({
      ok: false,
      reason: 'too-large-uncompressed',
    });
  });

  it('refuses a ZIP64 extra field that declares an absurd size', async () => {
    const zip = craftZip([
      manifestEntry,
      { name: 'assets/huge.bin', zip64: true, uncompressed: 1n << 62n, compressed: 0n },
    ]);
    expect(await check(zip)).toMatchObject({ ok: false, reason: 'too-large-uncompressed' });
  });

  it('counts tens of thousands of entries against the configured limit', async () => {
    const many = craftZip([manifestEntry, ...Array.from({ length: 30_000 }, (_, i) => ({ name: `r/${i}` }))]);
    const started = Date.now();
    expect(await check(many)).toMatchObject({ ok: true, entries: 30_001 });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await check(many, { ...defaultApkLimits, maxEntries: 20_000 })).toMatchObject({
      ok: false,
      reason: 'too-many-entries',
      detail: '30001 entries, the limit is 20000',
    });
  });

  it('refuses a ZIP64 end record that claims 2^40 entries before allocating anything for them', async () => {
    const lie = craftZip([manifestEntry, { name: 'classes.dex', data: 'dex' }], { zip64Entries: 1n << 40n });
    expect(await check(lie)).toMatchObject({ ok: false, reason: 'too-many-entries' });
    // A ZIP64 record that claims one entry more than the directory holds.
    const offByOne = craftZip([manifestEntry, { name: 'classes.dex', data: 'dex' }], { zip64Entries: 3n });
    expect(await check(offByOne)).toMatchObject({ ok: false, reason: 'malformed' });
    // The honest ZIP64 form of the same file is fine.
    const honest = craftZip([manifestEntry, { name: 'classes.dex', data: 'dex' }], { zip64Entries: 2n });
    expect(await check(honest)).toMatchObject({ ok: true, entries: 2 });
  });

  it('refuses an end record whose count disagrees with the directory', async () => {
    const entries = [manifestEntry, { name: 'a', data: 'a' }, { name: 'b', data: 'b' }];
    expect(await check(craftZip(entries, { declaredEntries: 2 }))).toMatchObject({
      ok: false,
      reason: 'malformed',
    });
    expect(await check(craftZip(entries, { declaredEntries: 4 }))).toMatchObject({
      ok: false,
      reason: 'malformed',
    });
  });

  it('refuses overlapping entries (many names over one compressed body)', async () => {
    const shared = craftZip([
      manifestEntry,
      { name: 'assets/kernel.bin', data: Buffer.alloc(2000, 1) },
      { name: 'assets/copy-1.bin', sameOffsetAs: 1, data: Buffer.alloc(2000, 1) },
    ]);
    expect(await check(shared)).toMatchObject({
      ok: false,
      reason: 'malformed',
      detail: expect.stringContaining('overlaps'),
    });
    // An entry whose declared compressed size runs into the next one.
    const runs = craftZip([
      manifestEntry,
      { name: 'a.bin', data: 'x', compressed: 5000 },
      { name: 'b.bin', data: 'y' },
    ]);
    expect(await check(runs)).toMatchObject({ ok: false, reason: 'malformed' });
  });

  it('refuses entry names that could leave a folder, and duplicate names', async () => {
    for (const name of [
      '../evil.so',
      'lib/../../evil.so',
      '/etc/passwd',
      'C:\\evil.dll',
      'assets\\..\\x',
      'ok\u0000.so',
    ]) {
      expect(await check(craftZip([manifestEntry, { name, data: 'x' }])), name).toMatchObject({
        ok: false,
        reason: 'unsafe-name',
      });
    }
    expect(
      await check(craftZip([manifestEntry, { name: 'a', data: '1' }, { name: 'a', data: '2' }])),
    ).toMatchObject({ ok: false, reason: 'malformed' });
  });

  it('tells a ZIP without AndroidManifest.xml and a non-ZIP from an APK', async () => {
    expect(await check(craftZip([{ name: 'classes.dex', data: 'dex' }]))).toMatchObject({
      ok: false,
      reason: 'not-apk',
    });
    expect(
      await check(Buffer.from('PK\u0003\u0004 but nothing else follows, really nothing at all')),
    ).toMatchObject({ ok: false, reason: 'not-apk' });
    expect(await check(Buffer.alloc(10))).toMatchObject({ ok: false, reason: 'not-apk' });
  });
});

describe('isUnsafeEntryName', () => {
  it('allows ordinary APK names, dots inside names included', () => {
    for (const name of [
      'AndroidManifest.xml',
      'res/drawable-hdpi/icon..png',
      'META-INF/CERT.RSA',
      'lib/arm64-v8a/libx.so',
      '...',
    ]) {
      expect(isUnsafeEntryName(name), name).toBe(false);
    }
  });
});
