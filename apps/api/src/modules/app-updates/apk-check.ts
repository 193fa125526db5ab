import { open, type FileHandle } from 'node:fs/promises';

/**
 * Tells an APK from anything else by content, reading only a ZIP's edges: the local file header
 * at the start, the end-of-central-directory record at the end, then the central directory
 * (bounded), looking for the AndroidManifest.xml entry every APK has. The file is never read whole.
 */

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const EOCD_MIN = 22;
const MAX_COMMENT = 0xffff;

export const apkLimits = {
  /** Real APKs hold a few thousand entries; a directory claiming more is refused. */
  maxEntries: 200_000,
  /** The central directory is read in one piece: ~100 bytes an entry, bounded here. */
  maxCentralDirectoryBytes: 32 * 1024 * 1024,
};

const MANIFEST = 'AndroidManifest.xml';

async function readAt(file: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

type Directory = { entries: number; size: number; offset: number };

async function findDirectory(file: FileHandle, fileSize: number): Promise<Directory | null> {
  const tailLength = Math.min(fileSize, EOCD_MIN + MAX_COMMENT);
  const tailStart = fileSize - tailLength;
  const tail = await readAt(file, tailStart, tailLength);
  for (let i = tail.length - EOCD_MIN; i >= 0; i--) {
    if (tail.readUInt32LE(i) !== EOCD) continue;
    // The comment must run exactly to the end of the file, or this is not the real record.
    if (i + EOCD_MIN + tail.readUInt16LE(i + 20) !== tail.length) continue;
    let entries = tail.readUInt16LE(i + 10);
    let size = tail.readUInt32LE(i + 12);
    let offset = tail.readUInt32LE(i + 16);
    if (entries === 0xffff || size === 0xffffffff || offset === 0xffffffff) {
      const locatorAt = tailStart + i - 20;
      if (locatorAt < 0) return null;
      const locator = await readAt(file, locatorAt, 20);
      if (locator.length < 20 || locator.readUInt32LE(0) !== ZIP64_LOCATOR) return null;
      const recordAt = Number(locator.readBigUInt64LE(8));
      if (!Number.isSafeInteger(recordAt) || recordAt + 56 > fileSize) return null;
      const record = await readAt(file, recordAt, 56);
      if (record.length < 56 || record.readUInt32LE(0) !== ZIP64_EOCD) return null;
      entries = Number(record.readBigUInt64LE(32));
      size = Number(record.readBigUInt64LE(40));
      offset = Number(record.readBigUInt64LE(48));
    }
    return { entries, size, offset };
  }
  return null;
}

/** True when the file is a ZIP whose central directory lists AndroidManifest.xml. */
export async function looksLikeApk(path: string): Promise<boolean> {
  const file = await open(path, 'r');
  try {
    const { size: fileSize } = await file.stat();
    if (fileSize < 30 + EOCD_MIN) return false;
    const head = await readAt(file, 0, 4);
    if (head.length < 4 || head.readUInt32LE(0) !== LOCAL_HEADER) return false;

    const dir = await findDirectory(file, fileSize);
    if (!dir) return false;
    if (dir.entries === 0 || dir.entries > apkLimits.maxEntries) return false;
    if (dir.size > apkLimits.maxCentralDirectoryBytes || dir.size < dir.entries * 46) return false;
    if (!Number.isSafeInteger(dir.offset) || dir.offset + dir.size > fileSize) return false;

    const central = await readAt(file, dir.offset, dir.size);
    if (central.length < dir.size) return false;
    let at = 0;
    for (let n = 0; n < dir.entries; n++) {
      if (at + 46 > central.length || central.readUInt32LE(at) !== CENTRAL_HEADER) return false;
      const nameLength = central.readUInt16LE(at + 28);
      const extraLength = central.readUInt16LE(at + 30);
      const commentLength = central.readUInt16LE(at + 32);
      const nameEnd = at + 46 + nameLength;
      if (nameEnd > central.length) return false;
      if (central.toString('utf8', at + 46, nameEnd) === MANIFEST) return true;
      at = nameEnd + extraLength + commentLength;
    }
    return false;
  } finally {
    await file.close();
  }
}
