import sharp from 'sharp';
import { deviceApiMessages } from '@app/contract/device-api';
import { isJpeg, isPng } from '#api/modules/profile/profile-image.ts';

/*
 * Treatment pictures the app sends (base64 in the batch). The type is decided by the bytes, then
 * the picture is decoded and a new JPEG encoded from its pixels, so only pixels survive (no EXIF or
 * GPS, no payload hidden after the image, no polyglot). It is kept as a data: URL in the database:
 * health data never becomes a public file, and the console shows data: URLs as they are.
 */

export const treatmentImageMaxBytes = 5 * 1024 * 1024;
/** Longest side kept: enough to read a treatment photo on a console screen. */
export const treatmentImageMaxSide = 1280;
/** A bound checked on the header before decoding: a small file declaring huge dimensions costs nothing. */
const maxPixels = 50_000_000;

export type ImageProblem = typeof deviceApiMessages.imageInvalid | typeof deviceApiMessages.imageTooLarge;

/** A data: URL of the re-encoded JPEG, or the reason the picture is refused. */
export async function cleanTreatmentImage(
  base64: string,
): Promise<{ url: string } | { problem: ImageProblem }> {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length > treatmentImageMaxBytes) return { problem: deviceApiMessages.imageTooLarge };
  const format = isPng(bytes) ? 'png' : isJpeg(bytes) ? 'jpeg' : null;
  if (!format) return { problem: deviceApiMessages.imageInvalid };
  try {
    const header = await sharp(bytes, { failOn: 'error', limitInputPixels: false }).metadata();
    if (
      header.format !== format ||
      !header.width ||
      !header.height ||
      header.width * header.height > maxPixels
    )
      return { problem: deviceApiMessages.imageInvalid };
    const jpeg = await sharp(bytes, { failOn: 'error', limitInputPixels: maxPixels, pages: 1 })
      // Upright by its EXIF orientation first, since the EXIF block is dropped.
      .rotate()
      .resize({
        width: treatmentImageMaxSide,
        height: treatmentImageMaxSide,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 80 })
      .toBuffer();
    return { url: `data:image/jpeg;base64,${jpeg.toString('base64')}` };
  } catch {
    // Truncated or damaged data: the decoder refused it.
    return { problem: deviceApiMessages.imageInvalid };
  }
}
