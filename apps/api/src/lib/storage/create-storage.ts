import path from 'node:path';
import type { Config } from '#api/config.ts';
import { createDiskStorage } from './disk-storage.ts';
import { createS3Storage } from './s3-storage.ts';
import type { Storage } from './storage.ts';

/** The configured file storage: disk under DATA_DIR/files (default), or an S3-compatible bucket (STORAGE=s3). */
export function createStorage(config: Pick<Config, 'dataDir' | 'storage'>): Storage {
  if (config.storage.kind === 's3')
    return createS3Storage(config.storage, path.join(config.dataDir, 'upload-tmp'));
  return createDiskStorage(path.join(config.dataDir, 'files'));
}
