import path from 'node:path';
import { loadConfig } from '#api/config.ts';

/**
 * What npm run backup and restore read from the environment: DATA_DIR, DATABASE_URL and the storage.
 * Not JWT_SECRET: without it loadConfig makes DATA_DIR and a new secret in it, and restore must find
 * DATA_DIR as it was (the backup brings its own secret), so a stand-in is given to the parser.
 */
export function backupSettings(env: Record<string, string | undefined>) {
  const config = loadConfig(
    { ...env, JWT_SECRET: env.JWT_SECRET || 'not-read-by-backup-or-restore-0123456789' },
    { takesPayments: false },
  );
  return { dataDir: config.dataDir, databaseUrl: config.databaseUrl, storage: config.storage.kind };
}

export const postgresAdvice = [
  'The database is PostgreSQL (DATABASE_URL): npm run backup and restore cover the embedded database only.',
  'Back PostgreSQL up with its own tools, e.g. pg_dump --format=custom --file=backup.dump "$DATABASE_URL"',
  "(pg_restore to restore it), or your provider's point-in-time recovery; the uploaded files are in the",
  'S3 bucket or DATA_DIR/files (docs/deployment.md, Backups).',
].join('\n');

/** Whether `file` is DATA_DIR or inside it. */
export const insideDir = (dir: string, file: string) => {
  const relative = path.relative(path.resolve(dir), path.resolve(file));
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
};
