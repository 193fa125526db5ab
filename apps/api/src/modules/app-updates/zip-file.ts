import { open } from 'node:fs/promises';
import type { ZipBytes } from '@app/contract/zip-directory';

/**
 * A file on disk as the contract's ZIP readers take it (zip-directory.ts): its size, and reads at a
 * position cut to the file's end, so a number the file lies with never sizes an allocation. The
 * file is closed once `use` is done.
 */
export async function withZipFile<T>(filePath: string, use: (zip: ZipBytes) => Promise<T>): Promise<T> {
  const file = await open(filePath, 'r');
  try {
    const { size } = await file.stat();
    return await use({
      size,
      read: async (position, length) => {
        const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - position)));
        const { bytesRead } = await file.read(buffer, 0, buffer.length, position);
        return buffer.subarray(0, bytesRead);
      },
    });
  } finally {
    await file.close();
  }
}
