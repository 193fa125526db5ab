import path from 'node:path';
import type { Config } from '../../config.ts';
import { createDiskStorage } from './disk-storage.ts';
import type { Storage } from './storage.ts';

/** The configured file storage: disk under DATA_DIR/files (default). */
export function createStorage(config: Pick<Config, 'dataDir'>): Storage {
  return createDiskStorage(path.join(config.dataDir, 'files'));
}
