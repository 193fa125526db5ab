import { findCentralDirectory, readCentralEntry, type CentralEntry } from '@app/contract/zip-directory';
import { CENTRAL_MIN, EOCD_MIN, LOCAL_HEADER, LOCAL_MIN } from '@app/contract/zip-format';
import { withZipFile } from './zip-file.ts';

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

/** Checks a ZIP's declared structure against `limits` and looks for AndroidManifest.xml. */
export function checkApk(path: string, limits: ApkLimits = defaultApkLimits): Promise<ApkVerdict> {
  const refuse = (reason: 'not-apk' | 'malformed' | 'unsafe-name', detail: string): ApkVerdict => ({
    ok: false,
    reason,
    detail,
  });
  return withZipFile(path, async (zip) => {
    if (zip.size < LOCAL_MIN + EOCD_MIN) return refuse('not-apk', 'too short for a ZIP');
    const head = await zip.read(0, 4);
    if (new DataView(head.buffer, head.byteOffset, 4).getUint32(0, true) !== LOCAL_HEADER)
      return refuse('not-apk', 'no ZIP signature');

    const dir = await findCentralDirectory(zip);
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

    const central = await zip.read(dir.offset, dir.size);
    if (central.length < dir.size) return refuse('malformed', 'central directory cut short');
    const entries: CentralEntry[] = [];
    const names = new Set<string>();
    let uncompressedBytes = 0;
    let hasManifest = false;
    let at = 0;
    for (let n = 0; n < dir.entries; n++) {
      const entry = readCentralEntry(central, at);
      if (typeof entry === 'string') return refuse('malformed', `entry ${n} ${entry}`);
      const { name } = entry;
      if (isUnsafeEntryName(name)) return refuse('unsafe-name', JSON.stringify(name.slice(0, 100)));
      // Two entries of one name: a device and a scanner might each read a different one.
      if (names.has(name))
        return refuse('malformed', `duplicate entry ${JSON.stringify(name.slice(0, 100))}`);
      names.add(name);
      if (!entry.sizesKnown) return refuse('malformed', `entry ${n} ZIP64 field`);
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
      at = entry.next;
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
  });
}
