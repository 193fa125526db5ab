// `npm run restore -- <file>`: replaces DATA_DIR with a backup of npm run backup (decision 076).
// Refuses while a server runs on DATA_DIR (stop it first); unpacks and checks the backup beside
// DATA_DIR, opens its database, then swaps the folders, keeping the old data as
// <DATA_DIR>.before-restore-<time> until the next restore. With DATABASE_URL it refuses and points
// to pg_restore. Exit code 0 when restored, 1 when it failed or refused (DATA_DIR unchanged), 2 on
// bad use.
import { ConfigError } from '#api/config.ts';
import { askServer, operatorSocketPath } from '#api/lib/operator-socket.ts';
import { backupSettings, postgresAdvice } from './backup-settings.ts';
import { restoreBackup, RestoreError } from './data-dir-restore.ts';

const args = process.argv.slice(2);
if (args.length !== 1 || args[0]!.startsWith('-')) {
  console.error('Usage: npm run restore -- <backup file>');
  process.exit(2);
}

let settings;
try {
  settings = backupSettings(process.env);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
if (settings.databaseUrl) {
  console.error(postgresAdvice);
  process.exit(1);
}

try {
  const socket = operatorSocketPath(settings.dataDir);
  const result = await restoreBackup({
    file: args[0]!,
    dataDir: settings.dataDir,
    serverRunning: async () => (await askServer(socket, null)) === true,
  });
  const lines = [
    `Restored the backup of ${result.createdAt} into ${result.dataDir}: ${result.users} user(s), ${result.devices} machine(s), ${result.files} uploaded file(s).`,
    result.previous
      ? `  The data that was there is kept in ${result.previous} until the next restore.`
      : '  There was no data there before.',
  ];
  if (result.storage === 's3')
    lines.push('  The uploaded files were in the S3 bucket when it was made: they are not in the backup.');
  if (!result.hasJwtSecret && !process.env.JWT_SECRET)
    lines.push(
      '  The backup holds no JWT secret (JWT_SECRET was set when it was made): start the server with that',
      '  same JWT_SECRET, or licence keys and two-step secrets in the database cannot be read.',
    );
  lines.push('  Start the server: npm start');
  console.log(lines.join('\n'));
} catch (error) {
  // Every failure leaves DATA_DIR as it was (data-dir-restore.ts).
  console.error(error instanceof RestoreError ? error.message : error);
  console.error(`Nothing was changed in ${settings.dataDir}.`);
  process.exitCode = 1;
}
