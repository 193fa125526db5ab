import { crc32 } from 'node:zlib';

/**
 * Builds ZIP files that lie, for the upload-hardening tests: every number a hostile file could
 * misstate (sizes, offsets, counts, ZIP64 records) can be overridden per entry or per file.
 */
export type CraftedEntry = {
  name: string;
  data?: Buffer | string;
  /** Declared sizes in the central directory; `zip64: true` moves them into a ZIP64 extra field. */
  uncompressed?: number | bigint;
  compressed?: number | bigint;
  zip64?: boolean;
  /** Point this entry's local header at another entry's (index): overlapping entries. */
  sameOffsetAs?: number;
};

export type CraftedZipOptions = {
  /** What the end record says about the entry count (default: the true count). */
  declaredEntries?: number;
  /** Write a ZIP64 end record + locator, with this entry count (the 16-bit field then reads 0xffff). */
  zip64Entries?: bigint;
};

export function craftZip(entries: CraftedEntry[], options: CraftedZipOptions = {}): Buffer {
  const body: Buffer[] = [];
  const centrals: Buffer[] = [];
  const offsets: number[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const data = Buffer.from(entry.data ?? '');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const localAt = entry.sameOffsetAs === undefined ? offset : offsets[entry.sameOffsetAs]!;
    offsets.push(localAt);
    if (entry.sameOffsetAs === undefined) {
      body.push(local, name, data);
      offset += 30 + name.length + data.length;
    }

    const uncompressed = BigInt(entry.uncompressed ?? data.length);
    const compressed = BigInt(entry.compressed ?? data.length);
    let extra = Buffer.alloc(0);
    if (entry.zip64) {
      extra = Buffer.alloc(4 + 16);
      extra.writeUInt16LE(0x0001, 0);
      extra.writeUInt16LE(16, 2);
      extra.writeBigUInt64LE(uncompressed, 4);
      extra.writeBigUInt64LE(compressed, 12);
    }
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(45, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(entry.zip64 ? 0xffffffff : Number(compressed), 20);
    central.writeUInt32LE(entry.zip64 ? 0xffffffff : Number(uncompressed), 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(extra.length, 30);
    central.writeUInt32LE(localAt, 42);
    centrals.push(central, name, extra);
  }
  const directory = Buffer.concat(centrals);
  const directoryAt = offset;
  const tail: Buffer[] = [];
  const count = options.declaredEntries ?? entries.length;
  if (options.zip64Entries !== undefined) {
    const record = Buffer.alloc(56);
    record.writeUInt32LE(0x06064b50, 0);
    record.writeBigUInt64LE(44n, 4);
    record.writeUInt16LE(45, 12);
    record.writeUInt16LE(45, 14);
    record.writeBigUInt64LE(options.zip64Entries, 24);
    record.writeBigUInt64LE(options.zip64Entries, 32);
    record.writeBigUInt64LE(BigInt(directory.length), 40);
    record.writeBigUInt64LE(BigInt(directoryAt), 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    locator.writeBigUInt64LE(BigInt(directoryAt + directory.length), 8);
    locator.writeUInt32LE(1, 16);
    tail.push(record, locator);
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  const count16 = options.zip64Entries !== undefined ? 0xffff : Math.min(count, 0xffff);
  end.writeUInt16LE(count16, 8);
  end.writeUInt16LE(count16, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(directoryAt, 16);
  return Buffer.concat([...body, directory, ...tail, end]);
}

export const manifestEntry: CraftedEntry = {
  name: 'AndroidManifest.xml',
  data: '<manifest package="com.example.crafted"/>',
};
