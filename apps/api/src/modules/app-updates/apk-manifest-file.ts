import { inflateRawSync } from 'node:zlib';
import { ManifestError, readApkManifest, type ApkManifest } from '@app/contract/apk-manifest';
import { withZipFile } from './zip-file.ts';

/** The manifest of an APK on disk: reads the ZIP's directory and one entry, never the whole file. */
export function readApkManifestFile(filePath: string): Promise<ApkManifest> {
  return withZipFile(filePath, (zip) =>
    readApkManifest({
      ...zip,
      inflateRaw: async (data, maxBytes) => {
        try {
          return inflateRawSync(data, { maxOutputLength: maxBytes });
        } catch {
          throw new ManifestError('its compressed data is damaged or larger than a manifest can be');
        }
      },
    }),
  );
}
