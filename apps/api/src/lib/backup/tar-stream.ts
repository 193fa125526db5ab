/*
 * The few parts of the POSIX tar format (ustar) that a backup needs: regular files, written and read
 * as streams, so an APK of hundreds of MB is never held in memory. A backup is then a plain
 * .tar.gz that `tar tzf` lists and `tar xzf` unpacks. Only regular files: no links, devices or
 * directory entries (a file's folders are made when it is written), so a hostile archive has less
 * to play with; the reader refuses everything else and any header whose checksum is wrong.
 */

const block = 512;
/** Sizes at or above 8 GiB do not fit 11 octal digits: GNU's base-256 form (first byte 0x80). */
const octalSizeLimit = 8 ** 11;

export class TarFormatError extends Error {}

export type TarFileHeader = { name: string; size: number; mtime: Date };
type TarEntryHeader = TarFileHeader & { type: 'file' | 'directory' };

function splitName(name: string): { name: string; prefix: string } {
  if (Buffer.byteLength(name) <= 100) return { name, prefix: '' };
  // ustar keeps a long path as prefix (155 bytes) + '/' + name (100 bytes).
  for (let cut = name.indexOf('/'); cut > 0; cut = name.indexOf('/', cut + 1)) {
    const prefix = name.slice(0, cut);
    const rest = name.slice(cut + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(rest) <= 100) return { name: rest, prefix };
  }
  throw new TarFormatError(`path too long for the archive: ${name}`);
}

const octal = (value: number, width: number) => value.toString(8).padStart(width - 1, '0') + '\0';

export function tarHeader(entry: TarFileHeader): Buffer {
  const header = Buffer.alloc(block);
  const { name, prefix } = splitName(entry.name);
  header.write(name, 0, 100, 'utf8');
  header.write(octal(0o600, 8), 100, 'ascii');
  header.write(octal(0, 8), 108, 'ascii');
  header.write(octal(0, 8), 116, 'ascii');
  if (entry.size < octalSizeLimit) header.write(octal(entry.size, 12), 124, 'ascii');
  else {
    header[124] = 0x80;
    header.writeBigUInt64BE(BigInt(entry.size), 128);
  }
  header.write(octal(Math.floor(entry.mtime.getTime() / 1000), 12), 136, 'ascii');
  header.write('        ', 148, 'ascii');
  header.write('0', 156, 'ascii');
  header.write('ustar\0' + '00', 257, 'ascii');
  header.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(octal(sum, 7) + ' ', 148, 'ascii');
  return header;
}

/** The zero bytes after a file's data up to the next 512-byte boundary. */
export const tarPadding = (size: number) => Buffer.alloc((block - (size % block)) % block);

/** The end of an archive: two zero blocks. */
export const tarEnd = () => Buffer.alloc(block * 2);

const text = (header: Buffer, from: number, length: number) => {
  const field = header.subarray(from, from + length);
  const end = field.indexOf(0);
  return field.subarray(0, end < 0 ? length : end).toString('utf8');
};

function numberField(header: Buffer, from: number, length: number): number {
  if (header[from]! & 0x80) {
    const value = header.readBigUInt64BE(from + length - 8);
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new TarFormatError('a size beyond reason');
    return Number(value);
  }
  const digits = text(header, from, length).trim();
  if (!/^[0-7]*$/.test(digits)) throw new TarFormatError('a damaged header (not a number)');
  return digits ? parseInt(digits, 8) : 0;
}

function parseHeader(header: Buffer, directories: boolean): TarEntryHeader {
  let sum = 0;
  for (let i = 0; i < block; i++) sum += i >= 148 && i < 156 ? 32 : header[i]!;
  if (numberField(header, 148, 8) !== sum) throw new TarFormatError('a damaged header (checksum)');
  if (text(header, 257, 6) !== 'ustar') throw new TarFormatError('not a ustar archive');
  const type = String.fromCharCode(header[156]!);
  const prefix = text(header, 345, 155);
  const name = prefix ? `${prefix}/${text(header, 0, 100)}` : text(header, 0, 100);
  const directory = type === '5' && directories;
  if (type !== '0' && type !== '\0' && !directory) throw new TarFormatError(`${name}: not a regular file`);
  return {
    name,
    type: directory ? 'directory' : 'file',
    size: directory ? 0 : numberField(header, 124, 12),
    mtime: new Date(numberField(header, 136, 12) * 1000),
  };
}

/** Reads exactly the bytes asked for from a stream of chunks. */
class ByteReader {
  private buffered: Buffer = Buffer.alloc(0);
  private readonly chunks: AsyncIterator<Uint8Array>;
  constructor(source: AsyncIterable<Uint8Array>) {
    this.chunks = source[Symbol.asyncIterator]();
  }
  /** Up to `max` bytes (at least one), or null at the end of the stream. */
  async some(max: number): Promise<Buffer | null> {
    if (this.buffered.length === 0) {
      const next = await this.chunks.next();
      if (next.done) return null;
      this.buffered = Buffer.from(next.value);
    }
    const piece = this.buffered.subarray(0, max);
    this.buffered = this.buffered.subarray(piece.length);
    return piece;
  }
  async exactly(length: number): Promise<Buffer | null> {
    const pieces: Buffer[] = [];
    let got = 0;
    while (got < length) {
      const piece = await this.some(length - got);
      if (!piece) {
        if (got === 0) return null;
        throw new TarFormatError('the archive stops in the middle of a block (truncated?)');
      }
      pieces.push(piece);
      got += piece.length;
    }
    return Buffer.concat(pieces);
  }
}

export type TarFileEntry = TarEntryHeader & {
  /** The file's bytes; read it before asking for the next entry (what is left unread is skipped). */
  body: AsyncIterable<Buffer>;
};

/**
 * The files of a tar stream in order (and its folders, when asked); the stream is read to its end.
 * Throws TarFormatError for a damaged header, an archive that stops before its end blocks, or any
 * other kind of entry.
 */
export async function* readTar(
  source: AsyncIterable<Uint8Array>,
  { directories = false } = {},
): AsyncGenerator<TarFileEntry> {
  const reader = new ByteReader(source);
  for (;;) {
    const header = await reader.exactly(block);
    if (!header) throw new TarFormatError('the archive stops before its end (truncated?)');
    if (header.every((byte) => byte === 0)) {
      // Read to the end, so a compressed source checks its trailer (gzip's CRC) too.
      while (await reader.some(64 * 1024));
      return;
    }
    const entry = parseHeader(header, directories);
    let left = entry.size;
    const body = async function* () {
      while (left > 0) {
        const piece = await reader.some(left);
        if (!piece) throw new TarFormatError(`the archive stops inside ${entry.name} (truncated?)`);
        left -= piece.length;
        yield piece;
      }
    };
    yield { ...entry, body: body() };
    while (left > 0) {
      const piece = await reader.some(left);
      if (!piece) throw new TarFormatError(`the archive stops inside ${entry.name} (truncated?)`);
      left -= piece.length;
    }
    const padding = tarPadding(entry.size).length;
    if (padding && !(await reader.exactly(padding)))
      throw new TarFormatError('the archive stops before its end (truncated?)');
  }
}
