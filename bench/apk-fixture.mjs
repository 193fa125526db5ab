// The bench's test APK: written to disk in 1 MB chunks, never held whole in memory.
// Run on its own, it writes one: `node bench/apk-fixture.mjs [file] [megabytes] [package] [versionCode]`
// (plain node is enough: it starts itself again with tsx, which the contract's TypeScript needs).
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, createReadStream, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32 } from 'node:zlib';

const self = fileURLToPath(import.meta.url);
const runDirectly = process.argv[1] !== undefined && path.resolve(process.argv[1]) === self;
const usage = 'node bench/apk-fixture.mjs [file] [megabytes] [package] [versionCode]';

// The manifest writer is the contract's TypeScript: without a loader for it (plain node before 22.18),
// a direct run starts again under tsx, and an importing script is told how it must be run.
let writeBinaryManifest;
try {
  ({ writeBinaryManifest } = await import('../packages/contract/src/android-manifest-writer.ts'));
} catch (err) {
  if (err?.code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw err;
  if (!runDirectly)
    throw new Error(
      `${path.relative(process.cwd(), process.argv[1] ?? self)} imports TypeScript: run it with \`node --import tsx\` (its npm script does), e.g. npm run bench:upload`,
      { cause: err },
    );
  const again = spawnSync(process.execPath, ['--import', 'tsx', self, ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  if (again.error) {
    process.stderr.write(
      `${again.error.message}\nRun it as: node --import tsx ${usage.slice('node '.length)}\n`,
    );
    process.exit(1);
  }
  process.exit(again.status ?? 1);
}

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

/** `node bench/apk-fixture.mjs [file] [megabytes] [package] [versionCode]`: writes one and says what it wrote. */
if (runDirectly && writeBinaryManifest) {
  const [
    file = path.resolve('.test-output/bench/fixture.apk'),
    mb = '10',
    packageName = 'com.treatment.device',
    code = '50',
  ] = process.argv.slice(2);
  const megabytes = Number(mb);
  const versionCode = Number(code);
  if (file === '--help' || !(megabytes >= 0) || !Number.isInteger(versionCode) || versionCode < 1) {
    process.stderr.write(`Usage: ${usage}\n`);
    process.exit(file === '--help' ? 0 : 1);
  }
  const { mkdirSync, statSync } = await import('node:fs');
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const release = {
    packageName,
    versionCode,
    versionName: `${Math.floor(versionCode / 10)}.${versionCode % 10}.0`,
  };
  writeApk(file, Math.round(megabytes * 1024 * 1024), release);
  process.stdout.write(
    `${file}: ${statSync(file).size} bytes, ${release.packageName} ${release.versionCode} (${release.versionName}), sha256 ${await sha256File(file)}\n`,
  );
}
