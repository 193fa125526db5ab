// `npm run backup -- [--out <file>]`: writes a backup of the embedded installation (the database,
// the uploaded files on disk, the generated JWT secret) to one .tar.gz file (decision 076). While a
// server runs on DATA_DIR it asks that server through DATA_DIR/operator.sock, since only the process
// that has the database open can read it; with none running it opens the data directory itself.
// With DATABASE_URL it refuses and points to pg_dump. Exit code 0 when written, 1 when it failed or
// refused, 2 on bad use.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '#api/config.ts';
import { askServer, operatorSocketPath } from '#api/lib/operator-socket.ts';
import { formatBytes } from '#api/lib/storage/disk-storage.ts';
import { backupSettings, insideDir, postgresAdvice } from './backup-settings.ts';
import { writeBackup, type BackupResult } from './data-dir-backup.ts';

function outArgument(args: string[]): { out?: string } | null {
  if (args.length === 0) return {};
  if (args.length === 1 && args[0]!.startsWith('--out=')) return { out: args[0]!.slice('--out='.length) };
  if (args.length === 2 && args[0] === '--out') return { out: args[1]! };
  return null;
}

const parsed = outArgument(process.argv.slice(2));
if (!parsed || parsed.out === '') {
  console.error('Usage: npm run backup -- [--out <file>]');
  process.exit(2);
}

class Refused extends Error {}

async function backup(): Promise<BackupResult & { by: string }> {
  const settings = backupSettings(process.env);
  if (settings.databaseUrl) throw new Refused(postgresAdvice);
  const stampNow = new Date().toISOString().replace(/[:.]/g, '-');
  const out = path.resolve(
    parsed!.out ?? path.join(`${settings.dataDir}-backups`, `backup-${stampNow}.tar.gz`),
  );
  if (insideDir(settings.dataDir, out))
    throw new Refused(
      `Write the backup outside DATA_DIR (${settings.dataDir}): a restore replaces that folder.`,
    );
  if (await stat(out).catch(() => null)) throw new Refused(`${out} already exists: name another file.`);

  const answer = (await askServer(operatorSocketPath(settings.dataDir), { command: 'backup', out })) as
    BackupResult | { error: string } | null;
  if (answer && 'error' in answer) throw new Refused(`The server refused: ${answer.error}`);
  if (answer) return { ...answer, by: 'by the running server' };

  const pgdata = path.join(settings.dataDir, 'pgdata');
  if (!(await stat(path.join(pgdata, 'PG_VERSION')).catch(() => null)))
    throw new Refused(`No embedded database in ${settings.dataDir}: nothing to back up.`);
  // Opened as it is, without migrations: a backup taken before an upgrade must hold the old schema.
  const { dumpPgliteDataDir } = await import('#api/db/client.ts');
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const client = await PGlite.create({ dataDir: pgdata, extensions: { pg_trgm } });
  try {
    const result = await writeBackup({
      dataDir: settings.dataDir,
      storage: settings.storage,
      dumpDatabase: () => dumpPgliteDataDir(client),
      out,
    });
    return { ...result, by: 'with no server running' };
  } finally {
    await client.close();
  }
}

try {
  const result = await backup();
  const lines = [
    `Backup written: ${result.path} (${formatBytes(result.bytes)})`,
    `  taken ${result.by}: the database (${formatBytes(result.databaseBytes)} before compression)` +
      (result.storage === 'disk'
        ? `, ${result.files} uploaded file(s) (${formatBytes(result.fileBytes)})`
        : '') +
      (result.jwtSecret ? ', the generated JWT secret' : ''),
  ];
  if (!result.jwtSecret)
    lines.push(
      '  No generated JWT secret in DATA_DIR (JWT_SECRET is set): keep JWT_SECRET with this backup, since',
      '  licence keys and two-step secrets in the database are sealed with it.',
    );
  if (result.storage === 's3')
    lines.push(
      '  The uploaded files are in the S3 bucket (STORAGE=s3), not in this backup: keep copies of the bucket',
      "  itself (the store's versioning or replication).",
    );
  lines.push(`  Restore it with the server stopped: npm run restore -- ${result.path}`);
  console.log(lines.join('\n'));
} catch (error) {
  console.error(error instanceof Refused || error instanceof ConfigError ? error.message : error);
  process.exitCode = 1;
}
