// `npm run admin:reset-password -- --email <email>`: gives a user a new one-time password (printed
// once), ends all their sessions and records it in the audit trail; for an admin who lost the
// password when no mail reaches them. Works while the server runs: on PostgreSQL (DATABASE_URL) it
// opens the database itself; on the embedded one (DATA_DIR) it asks the running server through
// DATA_DIR/operator.sock, or opens the database itself when no server runs.
// Exit code 0 when reset, 1 when there is no such user or it failed, 2 on bad use.
import { ConfigError, loadConfig } from '#api/config.ts';
import { openDatabase } from '#api/db/client.ts';
import { askServer, operatorSocketPath } from '#api/lib/operator-socket.ts';
import { operatorResetPassword, type OperatorPasswordResult } from './operator-reset-password.ts';

function emailArgument(args: string[]): string | null {
  if (args.length === 1 && args[0]!.startsWith('--email=')) return args[0]!.slice('--email='.length);
  if (args.length === 2 && args[0] === '--email') return args[1]!;
  return null;
}

const email = emailArgument(process.argv.slice(2));
if (!email || !email.includes('@')) {
  console.error('Usage: npm run admin:reset-password -- --email <email of the user>');
  process.exit(2);
}

async function reset(): Promise<OperatorPasswordResult | { error: string }> {
  const config = loadConfig(process.env, { takesPayments: false });
  if (!config.databaseUrl) {
    const answer = await askServer(operatorSocketPath(config.dataDir), {
      command: 'reset-password',
      email: email!,
    });
    if (answer) return answer as OperatorPasswordResult | { error: string };
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    return await operatorResetPassword(database.db, email!, new Date());
  } finally {
    await database.close();
  }
}

try {
  const result = await reset();
  if ('error' in result) {
    console.error(`The server refused: ${result.error}`);
    process.exitCode = 1;
  } else if (result.outcome === 'no-such-user') {
    console.error(`No user has the email ${result.email}.`);
    process.exitCode = 1;
  } else {
    console.log(
      [
        '',
        `  Password of ${result.email} was reset; ${result.sessionsEnded} session(s) signed out.`,
        `  One-time password: ${result.password}`,
        '  (shown once; give it to them by a safe way; they sign in with it and change it in My Profile)',
        '  The audit trail records it as password.reset.success by CLI admin:reset-password.',
        '',
      ].join('\n'),
    );
  }
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exitCode = 1;
}
