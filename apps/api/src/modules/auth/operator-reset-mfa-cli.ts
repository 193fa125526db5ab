// `npm run admin:reset-mfa -- <email>`: removes a user's two-step sign-in straight in the database
// (DATABASE_URL, or the embedded one in DATA_DIR), for when no admin who could do it from the
// console can sign in. Stop a server using the same embedded database first: only one process can
// open it. Exit code 0 when reset, 1 when there was nothing to reset or no such user, 2 on bad use.
import { ConfigError, loadConfig } from '#api/config.ts';
import { openDatabase } from '#api/db/client.ts';
import { operatorResetMfa } from './operator-reset-mfa.ts';

const email = process.argv[2];
if (!email || process.argv.length > 3 || !email.includes('@')) {
  console.error('Usage: npm run admin:reset-mfa -- <email of the user>');
  process.exit(2);
}

try {
  const config = loadConfig(process.env, { takesPayments: false });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const result = await operatorResetMfa(database.db, email, new Date());
    if (result.outcome === 'reset') {
      console.log(
        `Two-step sign-in of ${result.email} was reset and ${result.sessionsEnded} session(s) signed out. ` +
          'They sign in with the password and set it up again. The audit trail records it as mfa.reset.success.',
      );
    } else {
      console.error(
        result.outcome === 'no-such-user'
          ? `No user has the email ${result.email}.`
          : `${result.email} has no two-step sign-in to reset.`,
      );
      process.exitCode = 1;
    }
  } finally {
    await database.close();
  }
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exitCode = 1;
}
