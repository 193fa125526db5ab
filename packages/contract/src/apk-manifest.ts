import { ManifestError, readBinaryManifest, type ApkManifest } from './android-binary-xml.ts';
import {
  CENTRAL_HEADER,
  CENTRAL_MIN,
  EOCD,
  EOCD_MIN,
  LOCAL_HEADER,
  LOCAL_MIN,
  MAX_COMMENT,
  ZIP64_EOCD,
  ZIP64_LOCATOR,
} from './zip-format.ts';

export { ManifestError, type ApkManifest } from './android-binary-xml.ts';

/**
 * Reads an APK's manifest without reading the APK: the ZIP's end record, its central directory,
 * and the one entry AndroidManifest.xml. The same code runs in the API (a file on disk, zlib) and
 * in the browser (a File, DecompressionStream), given where to read and how to inflate.
 */
export type ZipSource = {
  size: number;
  read: (position: number, length: number) => Promise<Uint8Array>;
  /** Raw DEFLATE, refusing more than `maxBytes` of output. */
  inflateRaw: (data: Uint8Array, maxBytes: number) => Promise<Uint8Array>;
};

/** Real manifests are a few kB to a few hundred; anything near this is not one. */
const MANIFEST_MAX_BYTES = 4 * 1024 * 1024;
/** Bounds the one read of the directory (50,000 entries of long names fit). */
const DIRECTORY_MAX_BYTES = 16 * 1024 * 1024;

const viewOf = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);

async function directoryOf(zip: ZipSource) {
  const tailLength = Math.min(zip.size, EOCD_MIN + MAX_COMMENT);
  const tail = await zip.read(zip.size - tailLength, tailLength);
  const v = viewOf(tail);
  for (let i = tail.length - EOCD_MIN; i >= 0; i--) {
    if (v.getUint32(i, true) !== EOCD || i + EOCD_MIN + v.getUint16(i + 20, true) !== tail.length) continue;
    let size = v.getUint32(i + 12, true);
    let offset = v.getUint32(i + 16, true);
    if (size === 0xffffffff || offset === 0xffffffff || v.getUint16(i + 10, true) === 0xffff) {
      // ZIP64: the real numbers are in a record the locator before the end record points at.
      const locatorAt = zip.size - tailLength + i - 20;
      if (locatorAt < 0) break;
      const locator = viewOf(await zip.read(locatorAt, 20));
      if (locator.byteLength < 20 || locator.getUint32(0, true) !== ZIP64_LOCATOR) break;
      const recordAt = Number(locator.getBigUint64(8, true));
      const record = viewOf(await zip.read(recordAt, 56));
      if (record.byteLength < 56 || record.getUint32(0, true) !== ZIP64_EOCD) break;
      size = Number(record.getBigUint64(40, true));
      offset = Number(record.getBigUint64(48, true));
    }
    if (size > DIRECTORY_MAX_BYTES || offset + size > zip.size) break;
    return zip.read(offset, size);
  }
  throw new ManifestError('the file is not a ZIP archive (no readable central directory)');
}

/** The package, versionCode and versionName an APK declares. Throws ManifestError when it cannot. */
export async function readApkManifest(zip: ZipSource): Promise<ApkManifest> {
  const directory = await directoryOf(zip);
  const v = viewOf(directory);
  const decoder = new TextDecoder();
  for (let at = 0; at + CENTRAL_MIN <= directory.length;) {
    if (v.getUint32(at, true) !== CENTRAL_HEADER) throw new ManifestError('the central directory is damaged');
    const nameLength = v.getUint16(at + 28, true);
    const next = at + CENTRAL_MIN + nameLength + v.getUint16(at + 30, true) + v.getUint16(at + 32, true);
    if (at + CENTRAL_MIN + nameLength > directory.length) break;
    if (
      decoder.decode(directory.subarray(at + CENTRAL_MIN, at + CENTRAL_MIN + nameLength)) ===
      'AndroidManifest.xml'
    )
      return readBinaryManifest(
        await entryBytes(zip, {
          method: v.getUint16(at + 10, true),
          compressed: v.getUint32(at + 20, true),
          uncompressed: v.getUint32(at + 24, true),
          localOffset: v.getUint32(at + 42, true),
        }),
      );
    at = next;
  }
  throw new ManifestError('the APK has no AndroidManifest.xml');
}

async function entryBytes(
  zip: ZipSource,
  e: { method: number; compressed: number; uncompressed: number; localOffset: number },
): Promise<Uint8Array> {
  if (e.compressed > MANIFEST_MAX_BYTES || e.uncompressed > MANIFEST_MAX_BYTES)
    throw new ManifestError('too large to be a manifest');
  const local = viewOf(await zip.read(e.localOffset, LOCAL_MIN));
  if (local.byteLength < LOCAL_MIN || local.getUint32(0, true) !== LOCAL_HEADER)
    throw new ManifestError('its entry in the ZIP is damaged');
  const dataAt = e.localOffset + LOCAL_MIN + local.getUint16(26, true) + local.getUint16(28, true);
  if (dataAt + e.compressed > zip.size) throw new ManifestError('its entry runs past the end of the file');
  const data = await zip.read(dataAt, e.compressed);
  if (e.method === 0) return data;
  if (e.method === 8) return zip.inflateRaw(data, MANIFEST_MAX_BYTES);
  throw new ManifestError(`stored with an unknown compression method (${e.method})`);
}
