// `npm run licence:rotate-key`: a new key signs machines' licences from now on (DATABASE_URL, or the
// embedded database in DATA_DIR, with the server's JWT_SECRET). The keys it replaces stay in the
// JWKS until every licence they signed has expired, so no machine notices; running servers switch at
// once (the database announces it) and within a minute at the latest. Stop a server using the same
// embedded database first: only one process can open it. Exit code 0 when rotated, 1 on failure.
import { ConfigError, loadConfig } from '#api/config.ts';
import { openDatabase } from '#api/db/client.ts';
import { createLicenceKeys } from './licence-keys.ts';

if (process.argv.length > 2) {
  console.error('Usage: npm run licence:rotate-key');
  process.exit(2);
}

try {
  const config = loadConfig(process.env, { takesPayments: false });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const keys = createLicenceKeys({
      db: database.db,
      serverSecret: config.jwtSecret,
      now: () => new Date(),
      offlineDays: config.licences.offlineDays,
    });
    const { kid, retired, deleted } = await keys.rotate();
    console.log(
      `Licences are now signed with key ${kid}.` +
        (retired.length
          ? ` Retired (still published until their licences expire): ${retired.join(', ')}.`
          : '') +
        (deleted.length ? ` Deleted (their licences have all expired): ${deleted.join(', ')}.` : ''),
    );
  } finally {
    await database.close();
  }
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exitCode = 1;
}
