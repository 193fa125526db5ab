import { ManifestError, readApkManifest, type ApkManifest } from '@app/contract/apk-manifest';

/** A slice of the file, read without loading the rest (FileReader: every browser, and jsdom in tests). */
function bytesOf(blob: Blob): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(new ManifestError(`the file could not be read (${reader.error?.message})`));
    reader.readAsArrayBuffer(blob);
  });
}

/** Raw DEFLATE with the browser's DecompressionStream, stopped as soon as it passes `maxBytes`. */
async function inflateRaw(data: Uint8Array, maxBytes: number): Promise<Uint8Array> {
  const input = new ReadableStream<BufferSource>({
    start(controller) {
      controller.enqueue(new Uint8Array(data));
      controller.close();
    },
  });
  const reader = input.pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      total += next.value.length;
      if (total > maxBytes) {
        void reader.cancel();
        throw new ManifestError('larger than a manifest can be');
      }
      chunks.push(next.value);
    }
  } catch (error) {
    if (error instanceof ManifestError) throw error;
    throw new ManifestError('its compressed data is damaged');
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/**
 * The package, versionCode and versionName of the APK an admin picked, read in the browser with the
 * server's own reader: the ZIP's directory and the one manifest entry, never the whole file (APKs
 * run to hundreds of MB). Throws ManifestError when the file has no readable manifest.
 */
export function readApkFile(file: Blob): Promise<ApkManifest> {
  return readApkManifest({
    size: file.size,
    read: (position, length) => bytesOf(file.slice(position, position + length)),
    inflateRaw,
  });
}
