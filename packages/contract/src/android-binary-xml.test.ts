import { describe, expect, it } from 'vitest';
import { ManifestError, readBinaryManifest } from './android-binary-xml.ts';
import { writeBinaryManifest } from './android-manifest-writer.ts';

const base = { packageName: 'com.example.eswt', versionCode: 4021, versionName: '4.2.1' };

describe('reading a binary AndroidManifest.xml', () => {
  it.each([
    ['UTF-16 strings', {}],
    ['UTF-8 strings', { utf8: true }],
    ['attribute names stripped (resource ids only)', { stripNames: true }],
    ['a versionCode in hex', { versionCodeHex: true }],
  ])('reads package, versionCode and versionName with %s', (_, options) => {
    expect(readBinaryManifest(writeBinaryManifest({ ...base, ...options }))).toEqual(base);
  });

  it('gives no versionName when the manifest points at a string resource', () => {
    const bytes = writeBinaryManifest({ ...base, versionNameReference: true });
    expect(readBinaryManifest(bytes)).toEqual({ ...base, versionName: null });
  });

  it('reads names longer than 127 bytes and non-ASCII text in both encodings', () => {
    const long = { ...base, packageName: `com.example.${'a'.repeat(200)}`, versionName: '4.2 – Grün' };
    expect(readBinaryManifest(writeBinaryManifest(long))).toEqual(long);
    expect(readBinaryManifest(writeBinaryManifest({ ...long, utf8: true }))).toEqual(long);
  });

  it('refuses what is not a manifest: text XML, a versionCode of 0', () => {
    const text = new TextEncoder().encode('<manifest package="com.example"/>');
    expect(() => readBinaryManifest(text)).toThrow(ManifestError);
    expect(() => readBinaryManifest(writeBinaryManifest({ ...base, versionCode: 0 }))).toThrow(
      /no versionCode/,
    );
  });

  it('answers every truncated or corrupted file with a ManifestError, never a crash', () => {
    const good = writeBinaryManifest(base);
    for (let length = 0; length < good.length; length++)
      expect(() => readBinaryManifest(good.subarray(0, length))).toThrow(ManifestError);
    // Every byte set to each of a few damaging values: either still readable or a ManifestError.
    for (let at = 0; at < good.length; at++)
      for (const value of [0x00, 0x7f, 0x80, 0xff]) {
        const bad = good.slice();
        bad[at] = value;
        try {
          const read = readBinaryManifest(bad);
          expect(typeof read.packageName).toBe('string');
        } catch (error) {
          expect(error).toBeInstanceOf(ManifestError);
        }
      }
  });
});
