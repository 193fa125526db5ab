import { describe, expect, it } from 'vitest';
import { findCentralDirectory, readCentralEntry, type ZipBytes } from './zip-directory.ts';
import { buildZip } from './zip-writer.ts';

const bytesOf = (zip: Uint8Array): ZipBytes => ({
  size: zip.length,
  read: async (position, length) => zip.slice(position, position + length),
});

const concat = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((part) => [...part]));

/** A record of `length` bytes, filled by `write` through a little-endian view. */
const record = (length: number, write: (v: DataView) => void) => {
  const bytes = new Uint8Array(length);
  write(new DataView(bytes.buffer));
  return bytes;
};

/** One central directory header: 0xffffffff in a size or the offset defers it to the extra field. */
const centralHeader = (
  name: Uint8Array,
  fields: { compressed: number; uncompressed: number; localOffset: number; method?: number },
  extra = new Uint8Array(0),
  commentLength = 0,
) =>
  concat(
    record(46, (v) => {
      v.setUint32(0, 0x02014b50, true);
      v.setUint16(10, fields.method ?? 0, true);
      v.setUint32(20, fields.compressed, true);
      v.setUint32(24, fields.uncompressed, true);
      v.setUint16(28, name.length, true);
      v.setUint16(30, extra.length, true);
      v.setUint16(32, commentLength, true);
      v.setUint32(42, fields.localOffset, true);
    }),
    name,
    extra,
  );

const extraField = (id: number, values: bigint[]) =>
  record(4 + 8 * values.length, (v) => {
    v.setUint16(0, id, true);
    v.setUint16(2, 8 * values.length, true);
    values.forEach((value, i) => v.setBigUint64(4 + 8 * i, value, true));
  });

const ascii = (text: string) => new TextEncoder().encode(text);
const unknown = 0xffffffff;

/** A ZIP64 end record at `recordAt`, its locator, and an end record deferring to them. */
const zip64Tail = (recordAt: number, numbers: { entries: bigint; size: bigint; offset: bigint }) =>
  concat(
    record(56, (v) => {
      v.setUint32(0, 0x06064b50, true);
      v.setBigUint64(32, numbers.entries, true);
      v.setBigUint64(40, numbers.size, true);
      v.setBigUint64(48, numbers.offset, true);
    }),
    record(20, (v) => {
      v.setUint32(0, 0x07064b50, true);
      v.setBigUint64(8, BigInt(recordAt), true);
    }),
    record(22, (v) => {
      v.setUint32(0, 0x06054b50, true);
      v.setUint16(10, 0xffff, true);
      v.setUint32(12, unknown, true);
      v.setUint32(16, unknown, true);
    }),
  );

describe('findCentralDirectory', () => {
  it('finds the directory the end record names, and every entry in it one after another', async () => {
    const zip = buildZip([
      { name: 'AndroidManifest.xml', data: 'manifest' },
      { name: 'res/Grün.png', data: new Uint8Array(300) },
    ]);
    const dir = await findCentralDirectory(bytesOf(zip));
    expect(dir).toEqual({
      entries: 2,
      size: expect.any(Number),
      offset: expect.any(Number),
      end: zip.length - 22,
    });
    const directory = zip.subarray(dir!.offset, dir!.offset + dir!.size);
    const first = readCentralEntry(directory, 0);
    expect(first).toMatchObject({ name: 'AndroidManifest.xml', method: 0, compressed: 8, localOffset: 0 });
    const second = readCentralEntry(directory, typeof first === 'string' ? -1 : first.next);
    expect(second).toMatchObject({ name: 'res/Grün.png', uncompressed: 300, sizesKnown: true });
    expect(typeof second === 'string' ? -1 : second.next).toBe(directory.length);
  });

  it('skips a signature inside the comment that does not end the file, and finds none in a non-ZIP', async () => {
    const zip = buildZip([{ name: 'a', data: 'a' }]);
    const end = zip.slice(zip.length - 22);
    // A fake end record inside the comment: its own comment length does not reach the file's end.
    const comment = concat(
      record(22, (v) => v.setUint32(0, 0x06054b50, true)),
      ascii('tail'),
    );
    new DataView(end.buffer).setUint16(20, comment.length, true);
    const withComment = concat(zip.subarray(0, zip.length - 22), end, comment);
    expect(await findCentralDirectory(bytesOf(withComment))).toMatchObject({
      entries: 1,
      end: zip.length - 22,
    });
    expect(await findCentralDirectory(bytesOf(ascii('not a zip at all, not even close')))).toBeNull();
  });

  it('takes the numbers of a ZIP64 end record, past 2^53 as Infinity', async () => {
    const body = new Uint8Array(100);
    const honest = concat(body, zip64Tail(100, { entries: 70_000n, size: 46n, offset: 54n }));
    expect(await findCentralDirectory(bytesOf(honest))).toEqual({
      entries: 70_000,
      size: 46,
      offset: 54,
      end: 100,
    });
    const liar = concat(body, zip64Tail(100, { entries: 1n << 60n, size: 1n << 54n, offset: 0n }));
    expect(await findCentralDirectory(bytesOf(liar))).toMatchObject({ entries: Infinity, size: Infinity });
  });

  it('finds nothing when the ZIP64 locator points at a record running into it, or at no record', async () => {
    const body = new Uint8Array(100);
    // A record signature 36 bytes before the locator: a record there would run into the locator.
    const overlapping = concat(body, zip64Tail(100, { entries: 1n, size: 1n, offset: 1n }));
    const locatorAt = 156;
    new DataView(overlapping.buffer).setUint32(locatorAt - 36, 0x06064b50, true);
    new DataView(overlapping.buffer).setBigUint64(locatorAt + 8, BigInt(locatorAt - 36), true);
    expect(await findCentralDirectory(bytesOf(overlapping))).toBeNull();
    const noRecord = concat(body, zip64Tail(100, { entries: 1n, size: 1n, offset: 1n }));
    noRecord[100] = 0;
    expect(await findCentralDirectory(bytesOf(noRecord))).toBeNull();
  });
});

describe('readCentralEntry', () => {
  it('takes deferred sizes and offset from the ZIP64 extra field in order, past any other field', () => {
    const extra = concat(extraField(0x5455, [7n]), extraField(0x0001, [5_000_000_000n, 4_000_000_000n, 3n]));
    const header = centralHeader(
      ascii('big.bin'),
      { compressed: unknown, uncompressed: unknown, localOffset: unknown, method: 8 },
      extra,
    );
    expect(readCentralEntry(header, 0)).toEqual({
      name: 'big.bin',
      method: 8,
      uncompressed: 5_000_000_000,
      compressed: 4_000_000_000,
      localOffset: 3,
      next: header.length,
      sizesKnown: true,
    });
    // Only the offset deferred: the field's first value is the offset.
    const offsetOnly = centralHeader(
      ascii('far.bin'),
      { compressed: 1, uncompressed: 1, localOffset: unknown },
      extraField(0x0001, [1n << 60n]),
    );
    expect(readCentralEntry(offsetOnly, 0)).toMatchObject({
      compressed: 1,
      localOffset: Infinity,
      sizesKnown: true,
    });
  });

  it('says the sizes are not known when the ZIP64 field is missing, too short or cut off', () => {
    const fields = { compressed: unknown, uncompressed: unknown, localOffset: 0 };
    for (const extra of [
      new Uint8Array(0),
      extraField(0x0001, [1n]),
      extraField(0x0001, [1n, 2n]).subarray(0, 12),
    ]) {
      expect(readCentralEntry(centralHeader(ascii('x'), fields, extra), 0)).toMatchObject({
        sizesKnown: false,
      });
    }
  });

  it('names what is wrong: no header there, or an entry running past the directory', () => {
    const header = centralHeader(ascii('a'), { compressed: 1, uncompressed: 1, localOffset: 0 });
    expect(readCentralEntry(header, 1)).toBe('header');
    expect(readCentralEntry(header.subarray(0, 45), 0)).toBe('header');
    const longComment = centralHeader(
      ascii('a'),
      { compressed: 1, uncompressed: 1, localOffset: 0 },
      undefined,
      10,
    );
    expect(readCentralEntry(longComment, 0)).toBe('runs past the directory');
  });

  it('keeps a byte-order mark and replaces bytes that are not UTF-8, as the file would name them', () => {
    const header = centralHeader(new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0xff]), {
      compressed: 0,
      uncompressed: 0,
      localOffset: 0,
    });
    expect(readCentralEntry(header, 0)).toMatchObject({ name: '\uFEFFa\uFFFD' });
  });
});
