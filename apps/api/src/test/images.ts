import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { crc32 } from '@app/contract/crc32';

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * A real, decodable RGB PNG of one colour, with optional metadata chunks (tEXt, eXIf) that the
 * server must strip. `padTo` appends a private chunk to make the file that many bytes or more.
 * `idatTrailer` hides bytes inside the image data chunk, after the compressed pixels (a place a
 * metadata stripper keeps). `declare` writes other dimensions into the header than the pixels have:
 * a decompression bomb's header on a file of a few hundred bytes.
 */
export function makePng(
  opts: {
    width?: number;
    height?: number;
    rgb?: [number, number, number];
    text?: string;
    exif?: string;
    padTo?: number;
    idatTrailer?: string;
    declare?: { width: number; height: number };
  } = {},
): Buffer {
  const { width = 8, height = 8, rgb = [200, 30, 30] } = opts;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(opts.declare?.width ?? width, 0);
  ihdr.writeUInt32BE(opts.declare?.height ?? height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  const parts = [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr)];
  if (opts.text) parts.push(chunk('tEXt', Buffer.from(`Comment\0${opts.text}`, 'latin1')));
  if (opts.exif) parts.push(chunk('eXIf', Buffer.from(opts.exif, 'latin1')));
  parts.push(
    chunk('IDAT', Buffer.concat([deflateSync(pixels), Buffer.from(opts.idatTrailer ?? '', 'latin1')])),
  );
  const withoutEnd = Buffer.concat(parts);
  const end = chunk('IEND', Buffer.alloc(0));
  if (opts.padTo && withoutEnd.length + end.length < opts.padTo) {
    const fill = opts.padTo - withoutEnd.length - end.length - 12;
    return Buffer.concat([withoutEnd, chunk('prVt', Buffer.alloc(Math.max(0, fill), 7)), end]);
  }
  return Buffer.concat([withoutEnd, end]);
}

/** Names of the chunks of a PNG, in order. */
export function pngChunkTypes(png: Buffer): string[] {
  const types: string[] = [];
  for (let i = 8; i + 12 <= png.length; i += 12 + png.readUInt32BE(i))
    types.push(png.toString('latin1', i + 4, i + 8));
  return types;
}

const segment = (marker: number, data: Buffer) => {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(data.length + 2, 2);
  return Buffer.concat([head, data]);
};

/**
 * A real, decodable JPEG (encoded by sharp from one colour) with optional APP1 EXIF and COM segments
 * spliced in after SOI, and optional bytes after EOI: the places cameras and polyglots put things.
 */
export async function makeJpeg(
  opts: { width?: number; height?: number; exif?: string; comment?: string; trailer?: string } = {},
): Promise<Buffer> {
  const { width = 16, height = 16 } = opts;
  const base = await sharp({ create: { width, height, channels: 3, background: { r: 30, g: 90, b: 200 } } })
    .jpeg()
    .toBuffer();
  const parts = [base.subarray(0, 2)];
  if (opts.exif) parts.push(segment(0xe1, Buffer.from(`Exif\0\0${opts.exif}`, 'latin1')));
  if (opts.comment) parts.push(segment(0xfe, Buffer.from(opts.comment, 'latin1')));
  parts.push(base.subarray(2));
  if (opts.trailer) parts.push(Buffer.from(opts.trailer, 'latin1'));
  return Buffer.concat(parts);
}

/** A multipart/form-data body for inject(): text fields and at most one file. */
export function multipartBody(
  fields: Record<string, string>,
  file?: { name: string; filename: string; type: string; content: Buffer },
) {
  const boundary = `----test${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
    );
    parts.push(file.content, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
