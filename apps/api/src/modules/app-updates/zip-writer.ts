import { deflateRawSync } from 'node:zlib';
import { writeBinaryManifest } from '@app/contract/android-manifest-writer';
import { buildZip as buildZipBytes, type ZipEntry } from '@app/contract/zip-writer';

/**
 * The ZIP writer of packages/contract with node's DEFLATE, as a Buffer: builds the small
 * APK-shaped files of the demo data and of the tests. Real APKs come from Android's build tools.
 */
export const buildZip = (entries: ZipEntry[]): Buffer =>
  Buffer.from(buildZipBytes(entries, (data) => deflateRawSync(data)));

/**
 * A small file shaped like an APK: a ZIP holding a binary AndroidManifest.xml (package from
 * `appName`, the given versionCode), classes.dex and padding. Without `versionName` the manifest's
 * versionName is a resource reference, as in many real builds, so the form's one is taken.
 */
export function buildDemoApk(
  appName: string,
  versionCode: number,
  paddingBytes = 0,
  versionName?: string,
): Buffer {
  const manifest = writeBinaryManifest({
    packageName: appName.replace(/[^\w.]/g, '') || 'app',
    versionCode,
    versionName,
    versionNameReference: versionName === undefined,
  });
  const entries: ZipEntry[] = [
    { name: 'AndroidManifest.xml', data: manifest, deflate: true },
    { name: 'classes.dex', data: `dex\n035\0demo ${appName} ${versionCode}` },
    { name: 'resources.arsc', data: new Uint8Array(256).fill(versionCode % 251) },
  ];
  if (paddingBytes > 0)
    entries.push({ name: 'assets/padding.bin', data: new Uint8Array(paddingBytes).fill(7) });
  return buildZip(entries);
}
