import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root (this file is in apps/api/src/test/). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** Where test runs write, so they never change tracked files; `npm test` empties it first. */
export const testOutputDir = path.join(repoRoot, '.test-output');
