import {
  CENTRAL_HEADER,
  CENTRAL_MIN,
  EOCD,
  EOCD_MIN,
  MAX_COMMENT,
  ZIP64_EOCD,
  ZIP64_EXTRA,
  ZIP64_LOCATOR,
} from './zip-format.ts';

/**
 * The one reader of a ZIP's central directory: the API's upload check (apk-check.ts) judges every
 * entry it lists, and the manifest reader of both apps (apk-manifest.ts) finds one entry in it. Only
 * what it is pointed at is read: the end record, the ZIP64 records it defers to, and the headers in
 * a directory already read. What each caller makes of a file that lies is its own business; a number
 * past 2^53 is read as Infinity, so that any comparison the caller makes refuses it.
 */

/** A ZIP to read from: its size and its bytes at a position (a file on disk, a browser File). */
export type ZipBytes = {
  size: number;
  read: (position: number, length: number) => Promise<Uint8Array>;
};

/** Where the central directory is, as the end record says: `end` is where the directory must stop. */
export type CentralDirectory = { entries: number; size: number; offset: number; end: number };

const viewOf = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);
const safeNumber = (n: bigint) => (n > BigInt(Number.MAX_SAFE_INTEGER) ? Infinity : Number(n));

/** The central directory's place, from the end record (and the ZIP64 one when the end record defers to it). */
export async function findCentralDirectory(zip: ZipBytes): Promise<CentralDirectory | null> {
  const tailLength = Math.min(zip.size, EOCD_MIN + MAX_COMMENT);
  const tailStart = zip.size - tailLength;
  const tail = await zip.read(tailStart, tailLength);
  const v = viewOf(tail);
  for (let i = tail.length - EOCD_MIN; i >= 0; i--) {
    if (v.getUint32(i, true) !== EOCD) continue;
    // The comment must run exactly to the end of the file, or this is not the real record.
    if (i + EOCD_MIN + v.getUint16(i + 20, true) !== tail.length) continue;
    const end = tailStart + i;
    const entries = v.getUint16(i + 10, true);
    const size = v.getUint32(i + 12, true);
    const offset = v.getUint32(i + 16, true);
    if (entries !== 0xffff && size !== 0xffffffff && offset !== 0xffffffff)
      return { entries, size, offset, end };
    // ZIP64: the real numbers are in a record the locator just before the end record points at.
    const locatorAt = end - 20;
    if (locatorAt < 0) return null;
    const locator = viewOf(await zip.read(locatorAt, 20));
    if (locator.byteLength < 20 || locator.getUint32(0, true) !== ZIP64_LOCATOR) return null;
    const recordAt = Number(locator.getBigUint64(8, true));
    if (!Number.isSafeInteger(recordAt) || recordAt + 56 > locatorAt) return null;
    const record = viewOf(await zip.read(recordAt, 56));
    if (record.byteLength < 56 || record.getUint32(0, true) !== ZIP64_EOCD) return null;
    return {
      entries: safeNumber(record.getBigUint64(32, true)),
      size: safeNumber(record.getBigUint64(40, true)),
      offset: safeNumber(record.getBigUint64(48, true)),
      end: recordAt,
    };
  }
  return null;
}

/** One entry as its central directory header declares it. */
export type CentralEntry = {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  compressed: number;
  uncompressed: number;
  localOffset: number;
  /** Where the next entry's header starts in the directory. */
  next: number;
  /**
   * False when a size or the offset defers to a ZIP64 extra field (0xffffffff) that does not hold it;
   * the numbers are then not the entry's.
   */
  sizesKnown: boolean;
};

/** A name's bytes as text; a byte-order mark stays part of the name, as it would on disk. */
const names = new TextDecoder('utf-8', { ignoreBOM: true });

/** The ZIP64 extra field's 64-bit values, in the order the 32-bit fields deferred to it. */
function applyZip64(extra: Uint8Array, entry: CentralEntry): boolean {
  const wants = {
    uncompressed: entry.uncompressed === 0xffffffff,
    compressed: entry.compressed === 0xffffffff,
    localOffset: entry.localOffset === 0xffffffff,
  };
  const v = viewOf(extra);
  for (let at = 0; at + 4 <= extra.length;) {
    const id = v.getUint16(at, true);
    const size = v.getUint16(at + 2, true);
    if (at + 4 + size > extra.length) return false;
    if (id === ZIP64_EXTRA) {
      let p = at + 4;
      for (const field of ['uncompressed', 'compressed', 'localOffset'] as const) {
        if (!wants[field]) continue;
        if (p + 8 > at + 4 + size) return false;
        entry[field] = safeNumber(v.getBigUint64(p, true));
        p += 8;
      }
      return true;
    }
    at += 4 + size;
  }
  return !wants.uncompressed && !wants.compressed && !wants.localOffset;
}

/**
 * The entry whose header starts at `at` in a central directory, or what keeps it from being read:
 * no header there, or an entry running past the directory's end.
 */
export function readCentralEntry(
  directory: Uint8Array,
  at: number,
): CentralEntry | 'header' | 'runs past the directory' {
  const v = viewOf(directory);
  if (at + CENTRAL_MIN > directory.length || v.getUint32(at, true) !== CENTRAL_HEADER) return 'header';
  const nameLength = v.getUint16(at + 28, true);
  const extraLength = v.getUint16(at + 30, true);
  const commentLength = v.getUint16(at + 32, true);
  const next = at + CENTRAL_MIN + nameLength + extraLength + commentLength;
  if (next > directory.length) return 'runs past the directory';
  const nameEnd = at + CENTRAL_MIN + nameLength;
  const entry: CentralEntry = {
    name: names.decode(directory.subarray(at + CENTRAL_MIN, nameEnd)),
    method: v.getUint16(at + 10, true),
    compressed: v.getUint32(at + 20, true),
    uncompressed: v.getUint32(at + 24, true),
    localOffset: v.getUint32(at + 42, true),
    next,
    sizesKnown: true,
  };
  entry.sizesKnown = applyZip64(directory.subarray(nameEnd, nameEnd + extraLength), entry);
  return entry;
}
