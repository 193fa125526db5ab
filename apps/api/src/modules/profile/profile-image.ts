import sharp from 'sharp';
import { accountMessages, profileImageLimits } from '@app/contract/account';
import { PayloadTooLargeError, UnsupportedMediaTypeError } from '#api/lib/errors.ts';

export type CleanImage = { bytes: Buffer; ext: 'png' | 'jpg'; contentType: 'image/png' | 'image/jpeg' };

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export const isPng = (b: Buffer) => b.length >= 8 && b.subarray(0, 8).equals(pngSignature);
export const isJpeg = (b: Buffer) => b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;

/** Longest side of the stored picture: an avatar is shown small, so larger uploads are scaled down. */
export const storedMaxSide = 1024;

const damaged = () => new UnsupportedMediaTypeError(accountMessages.imageDamaged);

/**
 * Decides the type by the bytes (never by the name or the declared type), then decodes the picture
 * and encodes a new file from its pixels. Only pixels survive: EXIF/GPS, comments, ICC and XMP,
 * bytes after the end marker, data hidden inside chunks we would otherwise keep, and any polyglot
 * payload (a file that is also a ZIP, HTML or script). The dimensions are checked from the header
 * before anything is decoded, so a small file declaring 50000 × 50000 pixels costs nothing.
 * Only PNG and JPEG reach the decoder: libvips would read many more formats, and each is attack surface.
 */
export async function cleanProfileImage(bytes: Buffer): Promise<CleanImage> {
  const format = isPng(bytes) ? 'png' : isJpeg(bytes) ? 'jpeg' : null;
  if (!format) throw new UnsupportedMediaTypeError(accountMessages.imageType);
  const { maxSide, maxPixels } = profileImageLimits;

  // Reading the header decodes nothing; the pixel limit is ours (below), so sharp's is off here.
  const header = await sharp(bytes, { failOn: 'error', limitInputPixels: false })
    .metadata()
    .catch(() => null);
  if (!header || header.format !== format || !header.width || !header.height) throw damaged();
  if (header.width > maxSide || header.height > maxSide || header.width * header.height > maxPixels) {
    throw new PayloadTooLargeError(accountMessages.imageDimensions);
  }

  // limitInputPixels repeats the bound inside the decoder; failOn 'error' refuses truncated data.
  const pipeline = sharp(bytes, { failOn: 'error', limitInputPixels: maxPixels, pages: 1 })
    // Turn the picture upright by its EXIF orientation first, since the EXIF block is about to go.
    .rotate()
    .resize({ width: storedMaxSide, height: storedMaxSide, fit: 'inside', withoutEnlargement: true });
  try {
    if (format === 'png')
      return { bytes: await pipeline.png().toBuffer(), ext: 'png', contentType: 'image/png' };
    return { bytes: await pipeline.jpeg({ quality: 85 }).toBuffer(), ext: 'jpg', contentType: 'image/jpeg' };
  } catch {
    throw damaged();
  }
}
