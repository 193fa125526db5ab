import { open } from 'node:fs/promises';
import { inflateRawSync } from 'node:zlib';
import { ManifestError, readApkManifest, type ApkManifest } from '@app/contract/apk-manifest';

/** The manifest of an APK on disk: reads the ZIP's directory and one entry, never the whole file. */
export async function readApkManifestFile(filePath: string): Promise<ApkManifest> {
  const file = await open(filePath, 'r');
  try {
    const { size } = await file.stat();
    return await readApkManifest({
      size,
      read: async (position, length) => {
        const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - position)));
        const { bytesRead } = await file.read(buffer, 0, buffer.length, position);
        return buffer.subarray(0, bytesRead);
      },
      inflateRaw: async (data, maxBytes) => {
        try {
          return inflateRawSync(data, { maxOutputLength: maxBytes });
        } catch {
          throw new ManifestError('its compressed data is damaged or larger than a manifest can be');
        }
      },
    });
  } finally {
    await file.close();
  }
}
