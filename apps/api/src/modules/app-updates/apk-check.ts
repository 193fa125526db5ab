import { open, type FileHandle } from 'node:fs/promises';
import {
  CENTRAL_HEADER,
  CENTRAL_MIN,
  EOCD,
  EOCD_MIN,
  LOCAL_HEADER,
  LOCAL_MIN,
  MAX_COMMENT,
  ZIP64_EOCD,
  ZIP64_EXTRA,
  ZIP64_LOCATOR,
} from '@app/contract/zip-format';

/**
 * Judges an uploaded APK by its ZIP structure alone. Only the file's edges are read: the first
 * local header, the end-of-central-directory record (and its ZIP64 twin), then the central
 * directory, bounded in size. No entry's data is ever read or unpacked, and entry names are only
 * compared, never turned into file paths. So a zip bomb (a small file declaring gigabytes, tens of
 * thousands of entries, entries sharing one compressed body, a ZIP64 record that lies) is refused
 * from the numbers it declares, before anything downstream (a device, a scanner) could unpack it.
 */

const MANIFEST = 'AndroidManifest.xml';

export type ApkLimits = {
  /** Most entries the central directory may list (APK_MAX_ENTRIES). */
  maxEntries: number;
  /** Most bytes all entries may declare once unpacked, added up (APK_MAX_UNCOMPRESSED_BYTES). */
  maxUncompressedBytes: number;
};

export const defaultApkLimits: ApkLimits = { maxEntries: 50_000, maxUncompressedBytes: 2 * 1024 ** 3 };

/**
 * Why a file was refused. `not-apk`: not a ZIP, or no AndroidManifest.xml; `malformed`: a ZIP whose
 * records disagree (counts, offsets, entries overlapping or outside the file); `unsafe-name`: an entry
 * name that would escape a folder if anyone unpacked it; the two `too-*`: over the configured limits.
 */
export type ApkVerdict =
  | { ok: true; entries: number; uncompressedBytes: number }
  | { ok: false; reason: 'not-apk' | 'malformed' | 'unsafe-name'; detail: string }
  | { ok: false; reason: 'too-many-entries' | 'too-large-uncompressed'; detail: string };

async function readAt(file: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

type Directory = { entries: number; size: number; offset: number; end: number };

/** The central directory's place, from the EOCD record (and the ZIP64 one when the EOCD defers to it). */
async function findDirectory(file: FileHandle, fileSize: number): Promise<Directory | null> {
  const tailLength = Math.min(fileSize, EOCD_MIN + MAX_COMMENT);
  const tailStart = fileSize - tailLength;
  const tail = await readAt(file, tailStart, tailLength);
  for (let i = tail.length - EOCD_MIN; i >= 0; i--) {
    if (tail.readUInt32LE(i) !== EOCD) continue;
    // The comment must run exactly to the end of the file, or this is not the real record.
    if (i + EOCD_MIN + tail.readUInt16LE(i + 20) !== tail.length) continue;
    const end = tailStart + i;
    const entries = tail.readUInt16LE(i + 10);
    const size = tail.readUInt32LE(i + 12);
    const offset = tail.readUInt32LE(i + 16);
    if (entries !== 0xffff && size !== 0xffffffff && offset !== 0xffffffff)
      return { entries, size, offset, end };
    const locatorAt = end - 20;
    if (locatorAt < 0) return null;
    const locator = await readAt(file, locatorAt, 20);
    if (locator.length < 20 || locator.readUInt32LE(0) !== ZIP64_LOCATOR) return null;
    const recordAt = Number(locator.readBigUInt64LE(8));
    if (!Number.isSafeInteger(recordAt) || recordAt + 56 > locatorAt) return null;
    const record = await readAt(file, recordAt, 56);
    if (record.length < 56 || record.readUInt32LE(0) !== ZIP64_EOCD) return null;
    // Numbers past 2^53 cannot be honest for any file we accept; they become Infinity and fail below.
    const big = (n: bigint) => (n > BigInt(Number.MAX_SAFE_INTEGER) ? Infinity : Number(n));
    return {
      entries: big(record.readBigUInt64LE(32)),
      size: big(record.readBigUInt64LE(40)),
      offset: big(record.readBigUInt64LE(48)),
      end: recordAt,
    };
  }
  return null;
}

/**
 * A name that could leave its folder when unpacked (Android 14's ZipFile refuses the same): `..` as
 * a segment, an absolute path, a drive letter, a backslash, or a control character.
 */
export function isUnsafeEntryName(name: string): boolean {
  if (name.length === 0 || name.startsWith('/') || /^[A-Za-z]:/.test(name)) return true;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what we look for
  if (name.includes('\\') || /[\u0000-\u001f\u007f]/.test(name)) return true;
  return name.split('/').some((segment) => segment === '..');
}

type Entry = { name: string; compressed: number; uncompressed: number; localOffset: number };

/** The ZIP64 extra field's 64-bit values, in the order the 32-bit fields deferred to it. */
function applyZip64(
  extra: Buffer,
  entry: Entry,
  wants: { uncompressed: boolean; compressed: boolean; offset: boolean },
): boolean {
  for (let at = 0; at + 4 <= extra.length;) {
    const id = extra.readUInt16LE(at);
    const size = extra.readUInt16LE(at + 2);
    if (at + 4 + size > extra.length) return false;
    if (id === ZIP64_EXTRA) {
      let p = at + 4;
      const take = () => {
        if (p + 8 > at + 4 + size) return null;
        const v = extra.readBigUInt64LE(p);
        p += 8;
        return v > BigInt(Number.MAX_SAFE_INTEGER) ? Infinity : Number(v);
      };
      for (const field of ['uncompressed', 'compressed', 'offset'] as const) {
        if (!wants[field]) continue;
        const v = take();
        if (v === null) return false;
        if (field === 'offset') entry.localOffset = v;
        else entry[field] = v;
      }
      return true;
    }
    at += 4 + size;
  }
  return !wants.uncompressed && !wants.compressed && !wants.offset;
}

/** Checks a ZIP's declared structure against `limits` and looks for AndroidManifest.xml. */
export async function checkApk(path: string, limits: ApkLimits = defaultApkLimits): Promise<ApkVerdict> {
  const refuse = (reason: 'not-apk' | 'malformed' | 'unsafe-name', detail: string): ApkVerdict => ({
    ok: false,
    reason,
    detail,
  });
  const file = await open(path, 'r');
  try {
    const { size: fileSize } = await file.stat();
    if (fileSize < LOCAL_MIN + EOCD_MIN) return refuse('not-apk', 'too short for a ZIP');
    const head = await readAt(file, 0, 4);
    if (head.readUInt32LE(0) !== LOCAL_HEADER) return refuse('not-apk', 'no ZIP signature');

    const dir = await findDirectory(file, fileSize);
    if (!dir) return refuse('not-apk', 'no end of central directory');
    if (dir.entries === 0) return refuse('not-apk', 'an empty ZIP');
    // The count comes first: nothing is allocated for a directory that claims too many entries.
    if (dir.entries > limits.maxEntries) {
      return {
        ok: false,
        reason: 'too-many-entries',
        detail: `${dir.entries} entries, the limit is ${limits.maxEntries}`,
      };
    }
    // Each entry needs at least its fixed 46 bytes; and the directory must sit in the file, before its end record.
    const maxDirBytes = limits.maxEntries * (CENTRAL_MIN + 3 * 0xffff);
    if (dir.size < dir.entries * CENTRAL_MIN || dir.size > maxDirBytes || dir.size > 64 * 1024 * 1024)
      return refuse('malformed', 'central directory size');
    if (!Number.isSafeInteger(dir.offset) || dir.offset + dir.size > dir.end)
      return refuse('malformed', 'central directory offset');

    const central = await readAt(file, dir.offset, dir.size);
    if (central.length < dir.size) return refuse('malformed', 'central directory cut short');
    const entries: Entry[] = [];
    const names = new Set<string>();
    let uncompressedBytes = 0;
    let hasManifest = false;
    let at = 0;
    for (let n = 0; n < dir.entries; n++) {
      if (at + CENTRAL_MIN > central.length || central.readUInt32LE(at) !== CENTRAL_HEADER)
        return refuse('malformed', `entry ${n} header`);
      const nameLength = central.readUInt16LE(at + 28);
      const extraLength = central.readUInt16LE(at + 30);
      const commentLength = central.readUInt16LE(at + 32);
      const next = at + CENTRAL_MIN + nameLength + extraLength + commentLength;
      if (next > central.length) return refuse('malformed', `entry ${n} runs past the directory`);
      const name = central.toString('utf8', at + CENTRAL_MIN, at + CENTRAL_MIN + nameLength);
      if (isUnsafeEntryName(name)) return refuse('unsafe-name', JSON.stringify(name.slice(0, 100)));
      // Two entries of one name: a device and a scanner might each read a different one.
      if (names.has(name))
        return refuse('malformed', `duplicate entry ${JSON.stringify(name.slice(0, 100))}`);
      names.add(name);
      const entry: Entry = {
        name,
        compressed: central.readUInt32LE(at + 20),
        uncompressed: central.readUInt32LE(at + 24),
        localOffset: central.readUInt32LE(at + 42),
      };
      const wants = {
        uncompressed: entry.uncompressed === 0xffffffff,
        compressed: entry.compressed === 0xffffffff,
        offset: entry.localOffset === 0xffffffff,
      };
      const extra = central.subarray(
        at + CENTRAL_MIN + nameLength,
        at + CENTRAL_MIN + nameLength + extraLength,
      );
      if (!applyZip64(extra, entry, wants)) return refuse('malformed', `entry ${n} ZIP64 field`);
      uncompressedBytes += entry.uncompressed;
      if (uncompressedBytes > limits.maxUncompressedBytes) {
        return {
          ok: false,
          reason: 'too-large-uncompressed',
          detail: `more than ${limits.maxUncompressedBytes} bytes unpacked`,
        };
      }
      if (name === MANIFEST) hasManifest = true;
      entries.push(entry);
      at = next;
    }
    // The count and the size the end record declared must be exactly what the directory holds.
    if (at !== central.length) return refuse('malformed', 'central directory longer than its entries');

    // Every entry's local header and data must lie before the directory, none overlapping the next:
    // overlapping entries are how a 42 kB file can unpack to petabytes.
    entries.sort((a, b) => a.localOffset - b.localOffset);
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i]!;
      const minEnd = e.localOffset + LOCAL_MIN + Buffer.byteLength(e.name) + e.compressed;
      const limit = i + 1 < entries.length ? entries[i + 1]!.localOffset : dir.offset;
      if (!Number.isSafeInteger(minEnd) || minEnd > limit)
        return refuse('malformed', `entry ${JSON.stringify(e.name.slice(0, 100))} overlaps`);
    }
    if (!hasManifest) return refuse('not-apk', 'no AndroidManifest.xml');
    return { ok: true, entries: entries.length, uncompressedBytes };
  } finally {
    await file.close();
  }
}
