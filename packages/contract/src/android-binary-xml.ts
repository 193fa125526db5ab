/**
 * The three facts an app update needs from an APK's AndroidManifest.xml, which the build tools
 * store as Android's binary XML (a string pool, a resource-id map, then one chunk per element).
 * Only the first element, <manifest>, is read. Every offset is checked against the buffer, so a
 * crafted file gives a `ManifestError`, never an exception from a bad read or an endless loop.
 */

export type ApkManifest = {
  packageName: string;
  versionCode: number;
  /** Null when the manifest points at a resource (`@string/...`) instead of holding the text. */
  versionName: string | null;
};

export class ManifestError extends Error {
  constructor(detail: string) {
    super(`AndroidManifest.xml: ${detail}`);
    this.name = 'ManifestError';
  }
}

const XML = 0x0003;
const STRING_POOL = 0x0001;
const RESOURCE_MAP = 0x0180;
const START_ELEMENT = 0x0102;
const UTF8_FLAG = 1 << 8;
const TYPE_REFERENCE = 0x01;
const TYPE_STRING = 0x03;
const TYPE_INT_DEC = 0x10;
const TYPE_INT_HEX = 0x11;
/** android:versionCode and android:versionName, for manifests whose attribute names were stripped. */
const VERSION_CODE_ID = 0x0101021b;
const VERSION_NAME_ID = 0x0101021c;

type Chunk = { type: number; headerSize: number; start: number; end: number };

function chunkAt(view: DataView, start: number, limit: number): Chunk {
  if (start + 8 > limit) throw new ManifestError('a chunk runs past the end of the file');
  const type = view.getUint16(start, true);
  const headerSize = view.getUint16(start + 2, true);
  const size = view.getUint32(start + 4, true);
  if (headerSize < 8 || size < headerSize || start + size > limit)
    throw new ManifestError(`chunk 0x${type.toString(16)} has impossible sizes`);
  return { type, headerSize, start, end: start + size };
}

function readStringPool(view: DataView, bytes: Uint8Array, chunk: Chunk): string[] {
  if (chunk.headerSize < 28) throw new ManifestError('the string pool header is too short');
  const count = view.getUint32(chunk.start + 8, true);
  const flags = view.getUint32(chunk.start + 16, true);
  const stringsStart = chunk.start + view.getUint32(chunk.start + 20, true);
  const offsetsStart = chunk.start + chunk.headerSize;
  if (offsetsStart + count * 4 > chunk.end || stringsStart > chunk.end)
    throw new ManifestError('the string pool is larger than its chunk');
  const utf8 = (flags & UTF8_FLAG) !== 0;
  const decoder = new TextDecoder(utf8 ? 'utf-8' : 'utf-16le', { fatal: false });
  const strings: string[] = new Array(count);
  for (let i = 0; i < count; i++) {
    let at = stringsStart + view.getUint32(offsetsStart + i * 4, true);
    const need = (n: number) => {
      if (at + n > chunk.end) throw new ManifestError('a string runs past its pool');
    };
    // A UTF-8 length takes one byte, or two with the high bit set.
    const length8 = () => {
      need(1);
      const first = view.getUint8(at);
      if (!(first & 0x80)) return ((at += 1), first);
      need(2);
      const length = ((first & 0x7f) << 8) | view.getUint8(at + 1);
      return ((at += 2), length);
    };
    if (utf8) {
      length8(); // in UTF-16 units: not needed
      const length = length8();
      need(length);
      strings[i] = decoder.decode(bytes.subarray(at, at + length));
    } else {
      need(2);
      const first = view.getUint16(at, true);
      let length = first;
      at += 2;
      if (first & 0x8000) {
        need(2);
        length = ((first & 0x7fff) << 16) | view.getUint16(at, true);
        at += 2;
      }
      need(length * 2);
      strings[i] = decoder.decode(bytes.subarray(at, at + length * 2));
    }
  }
  return strings;
}

function readResourceMap(view: DataView, chunk: Chunk): number[] {
  const ids: number[] = [];
  for (let at = chunk.start + chunk.headerSize; at + 4 <= chunk.end; at += 4)
    ids.push(view.getUint32(at, true));
  return ids;
}

/** The package, versionCode and versionName of a binary AndroidManifest.xml. */
export function readBinaryManifest(bytes: Uint8Array): ApkManifest {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const file = chunkAt(view, 0, bytes.byteLength);
  if (file.type !== XML) throw new ManifestError('not Android binary XML');
  let strings: string[] = [];
  let resourceIds: number[] = [];
  for (let at = file.start + file.headerSize; at < file.end;) {
    const chunk = chunkAt(view, at, file.end);
    if (chunk.type === STRING_POOL) strings = readStringPool(view, bytes, chunk);
    else if (chunk.type === RESOURCE_MAP) resourceIds = readResourceMap(view, chunk);
    else if (chunk.type === START_ELEMENT) return manifestElement(view, chunk, strings, resourceIds);
    at = chunk.end;
  }
  throw new ManifestError('no <manifest> element');
}

function manifestElement(view: DataView, chunk: Chunk, strings: string[], resourceIds: number[]) {
  const ext = chunk.start + chunk.headerSize;
  if (ext + 20 > chunk.end) throw new ManifestError('the first element is cut short');
  const string = (index: number) => (index === 0xffffffff ? undefined : strings[index]);
  if (string(view.getUint32(ext + 4, true)) !== 'manifest')
    throw new ManifestError('the first element is not <manifest>');
  const attributesStart = ext + view.getUint16(ext + 8, true);
  const attributeSize = view.getUint16(ext + 10, true);
  const attributeCount = view.getUint16(ext + 12, true);
  if (attributeSize < 20 || attributesStart + attributeCount * attributeSize > chunk.end)
    throw new ManifestError('the attributes of <manifest> run past their chunk');

  let packageName: string | undefined;
  let versionCode: number | undefined;
  let versionName: string | null | undefined;
  for (let i = 0; i < attributeCount; i++) {
    const at = attributesStart + i * attributeSize;
    const nameIndex = view.getUint32(at + 4, true);
    const name = string(nameIndex);
    const id = resourceIds[nameIndex];
    const raw = string(view.getUint32(at + 8, true));
    const type = view.getUint8(at + 15);
    const data = view.getUint32(at + 16, true);
    const text = type === TYPE_STRING ? string(data) : raw;
    if (name === 'package') packageName = text;
    else if (id === VERSION_CODE_ID || (id === undefined && name === 'versionCode')) {
      if (type === TYPE_INT_DEC || type === TYPE_INT_HEX) versionCode = data;
      else if (text !== undefined && /^\d+$/.test(text)) versionCode = Number(text);
    } else if (id === VERSION_NAME_ID || (id === undefined && name === 'versionName'))
      versionName = type === TYPE_REFERENCE ? null : (text ?? null);
  }
  if (!packageName) throw new ManifestError('<manifest> has no package');
  if (versionCode === undefined || versionCode < 1 || versionCode > 2_100_000_000)
    throw new ManifestError('<manifest> has no versionCode between 1 and 2100000000');
  return { packageName, versionCode, versionName: versionName ?? null };
}
