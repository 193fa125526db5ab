import { ManifestError, readBinaryManifest, type ApkManifest } from './android-binary-xml.ts';
import { findCentralDirectory, readCentralEntry, type CentralEntry, type ZipBytes } from './zip-directory.ts';
import { CENTRAL_MIN, LOCAL_HEADER, LOCAL_MIN } from './zip-format.ts';

export { ManifestError, type ApkManifest } from './android-binary-xml.ts';

/**
 * Reads an APK's manifest without reading the APK: the ZIP's end record, its central directory,
 * and the one entry AndroidManifest.xml. The same code runs in the API (a file on disk, zlib) and
 * in the browser (a File, DecompressionStream), given where to read and how to inflate.
 */
export type ZipSource = ZipBytes & {
  /** Raw DEFLATE, refusing more than `maxBytes` of output. */
  inflateRaw: (data: Uint8Array, maxBytes: number) => Promise<Uint8Array>;
};

/** Real manifests are a few kB to a few hundred; anything near this is not one. */
const MANIFEST_MAX_BYTES = 4 * 1024 * 1024;
/** Bounds the one read of the directory (50,000 entries of long names fit). */
const DIRECTORY_MAX_BYTES = 16 * 1024 * 1024;

const viewOf = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);

async function directoryOf(zip: ZipSource): Promise<Uint8Array> {
  const dir = await findCentralDirectory(zip);
  if (!dir || dir.size > DIRECTORY_MAX_BYTES || dir.offset + dir.size > zip.size)
    throw new ManifestError('the file is not a ZIP archive (no readable central directory)');
  return zip.read(dir.offset, dir.size);
}

/** The package, versionCode and versionName an APK declares. Throws ManifestError when it cannot. */
export async function readApkManifest(zip: ZipSource): Promise<ApkManifest> {
  const directory = await directoryOf(zip);
  for (let at = 0; at + CENTRAL_MIN <= directory.length;) {
    const entry = readCentralEntry(directory, at);
    if (entry === 'header') throw new ManifestError('the central directory is damaged');
    if (entry === 'runs past the directory') break;
    if (entry.name === 'AndroidManifest.xml') {
      if (!entry.sizesKnown) throw new ManifestError('the central directory is damaged');
      return readBinaryManifest(await entryBytes(zip, entry));
    }
    at = entry.next;
  }
  throw new ManifestError('the APK has no AndroidManifest.xml');
}

async function entryBytes(zip: ZipSource, e: CentralEntry): Promise<Uint8Array> {
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
