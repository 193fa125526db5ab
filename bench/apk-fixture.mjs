// The bench's test APK: written to disk in 1 MB chunks, never held whole in memory.
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, createReadStream, openSync, writeSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { writeBinaryManifest } from '../packages/contract/src/android-manifest-writer.ts';

/**
 * A stored (uncompressed) ZIP shaped like an APK: a binary manifest declaring `release` (package,
 * versionCode, versionName, which the server checks against the form) and one large asset of
 * random bytes.
 */
export function writeApk(file, bytes, release) {
  const fd = openSync(file, 'w');
  let offset = 0;
  const central = [];
  const entry = (name, chunks, length) => {
    const nameBuf = Buffer.from(name);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt32LE(length, 18);
    header.writeUInt32LE(length, 22);
    header.writeUInt16LE(nameBuf.length, 26);
    const headerAt = offset;
    offset += writeSync(fd, header, 0, 30, offset) + writeSync(fd, nameBuf, 0, nameBuf.length, offset + 30);
    let crc = 0;
    for (const chunk of chunks()) {
      crc = crc32(chunk, crc);
      offset += writeSync(fd, chunk, 0, chunk.length, offset);
    }
    const crcBuf = Buffer.alloc(4);
    crcBuf.writeUInt32LE(crc >>> 0);
    writeSync(fd, crcBuf, 0, 4, headerAt + 14);
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE(20, 4);
    c.writeUInt16LE(20, 6);
    c.writeUInt32LE(crc >>> 0, 16);
    c.writeUInt32LE(length, 20);
    c.writeUInt32LE(length, 24);
    c.writeUInt16LE(nameBuf.length, 28);
    c.writeUInt32LE(headerAt, 42);
    central.push(c, nameBuf);
  };
  const manifest = Buffer.from(writeBinaryManifest(release));
  entry(
    'AndroidManifest.xml',
    function* () {
      yield manifest;
    },
    manifest.length,
  );
  entry(
    'assets/big.bin',
    function* () {
      for (let left = bytes; left > 0; left -= 1 << 20) yield randomBytes(Math.min(left, 1 << 20));
    },
    bytes,
  );
  const dir = Buffer.concat(central);
  const cdAt = offset;
  offset += writeSync(fd, dir, 0, dir.length, offset);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(2, 8);
  end.writeUInt16LE(2, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(cdAt, 16);
  writeSync(fd, end, 0, 22, offset);
  closeSync(fd);
}

/** The file's SHA-256, read as a stream: the APK is far larger than the memory budget. */
export const sha256File = (file) =>
  new Promise((resolve, reject) => {
    const h = createHash('sha256');
    createReadStream(file)
      .on('data', (c) => h.update(c))
      .on('end', () => resolve(h.digest('hex')))
      .on('error', reject);
  });
