import { accountMessages } from '@app/contract/account';
import { UnsupportedMediaTypeError } from '../../lib/errors.ts';

export type CleanImage = { bytes: Buffer; ext: 'png' | 'jpg'; contentType: 'image/png' | 'image/jpeg' };

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * PNG chunks that draw the picture. Everything else goes: tEXt/zTXt/iTXt (comments, software,
 * XMP), eXIf (camera, GPS), tIME, and any private chunk.
 */
const pngKeep = new Set(['IHDR', 'PLTE', 'IDAT', 'IEND', 'tRNS', 'gAMA', 'cHRM', 'sRGB', 'iCCP', 'sBIT', 'bKGD', 'pHYs', 'acTL', 'fcTL', 'fdAT']);

const damaged = () => new UnsupportedMediaTypeError(accountMessages.imageDamaged);

export const isPng = (b: Buffer) => b.length >= 8 && b.subarray(0, 8).equals(pngSignature);
export const isJpeg = (b: Buffer) => b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;

function stripPng(b: Buffer): Buffer {
  const out: Buffer[] = [pngSignature];
  let i = 8;
  let first = true;
  let sawData = false;
  while (i + 12 <= b.length) {
    const length = b.readUInt32BE(i);
    const type = b.toString('latin1', i + 4, i + 8);
    const end = i + 12 + length;
    if (length > 0x7fffffff || end > b.length || !/^[A-Za-z]{4}$/.test(type)) throw damaged();
    if (first && (type !== 'IHDR' || length !== 13)) throw damaged();
    first = false;
    if (type === 'IDAT') sawData = true;
    if (pngKeep.has(type)) out.push(b.subarray(i, end));
    // Whatever follows IEND (a classic place to smuggle data) is dropped.
    if (type === 'IEND') {
      if (!sawData) throw damaged();
      return Buffer.concat(out);
    }
    i = end;
  }
  throw damaged();
}

const isRst = (m: number) => m >= 0xd0 && m <= 0xd7;

/**
 * Copies a JPEG segment by segment, dropping APP1..APP15 (EXIF, XMP, ICC, maker notes, Photoshop)
 * and COM segments, up to the first EOI: trailers after the image are dropped too.
 */
function stripJpeg(b: Buffer): Buffer {
  const out: Buffer[] = [b.subarray(0, 2)];
  let i = 2;
  let sawScan = false;
  while (i < b.length) {
    if (b[i] !== 0xff) throw damaged();
    while (b[i + 1] === 0xff) i++; // fill bytes
    const marker = b[i + 1];
    if (marker === undefined) throw damaged();
    if (marker === 0xd9) {
      if (!sawScan) throw damaged();
      out.push(Buffer.from([0xff, 0xd9]));
      return Buffer.concat(out);
    }
    if (marker === 0x01 || isRst(marker)) {
      out.push(b.subarray(i, i + 2));
      i += 2;
      continue;
    }
    if (i + 4 > b.length) throw damaged();
    const length = b.readUInt16BE(i + 2);
    const end = i + 2 + length;
    if (length < 2 || end > b.length) throw damaged();
    const drop = (marker >= 0xe1 && marker <= 0xef) || marker === 0xfe;
    if (!drop) out.push(b.subarray(i, end));
    i = end;
    if (marker === 0xda) {
      sawScan = true;
      // Entropy-coded data runs to the next marker that is not a stuffed 0xFF00 or a restart.
      let j = i;
      while (j < b.length) {
        if (b[j] === 0xff) {
          const next = b[j + 1];
          if (next === 0x00 || (next !== undefined && isRst(next))) {
            j += 2;
            continue;
          }
          break;
        }
        j++;
      }
      out.push(b.subarray(i, j));
      i = j;
    }
  }
  throw damaged();
}

/**
 * Decides the type by the bytes, never by the name or the declared type, and returns the picture
 * without its metadata. Anything that is not a PNG or a JPEG gets a 415.
 */
export function cleanProfileImage(bytes: Buffer): CleanImage {
  if (isPng(bytes)) return { bytes: stripPng(bytes), ext: 'png', contentType: 'image/png' };
  if (isJpeg(bytes)) return { bytes: stripJpeg(bytes), ext: 'jpg', contentType: 'image/jpeg' };
  throw new UnsupportedMediaTypeError(accountMessages.imageType);
}
