// `npm run audit:verify [-- --json]`: verifies the audit trail's hash chains (decision 080) in the
// database of DATABASE_URL, else the embedded one under DATA_DIR. While a server runs on DATA_DIR it
// asks that server through DATA_DIR/operator.sock (only the process that has the embedded database
// open can read it); otherwise it opens the database itself, as it is: no migration runs, a
// verification changes nothing. One line per chain (or the report as JSON with --json).
// Exit code 0 only when every chain is whole; 1 when one is broken or verification failed; 2 on bad use.
import path from 'node:path';
import { stat } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import type { AuditChainVerification } from '@app/contract/audit-chain';
import { ConfigError } from '#api/config.ts';
import type { Db } from '#api/db/client.ts';
import { rowsOf } from '#api/db/rows-of.ts';
import { backupSettings } from '#api/lib/backup/backup-settings.ts';
import { askServer, operatorSocketPath } from '#api/lib/operator-socket.ts';
import { createAuditChainService, describeVerification } from './audit-chain-service.ts';

const args = process.argv.slice(2);
if (args.length > 1 || (args.length === 1 && args[0] !== '--json')) {
  console.error('Usage: npm run audit:verify [-- --json]');
  process.exit(2);
}
const json = args[0] === '--json';

class Refused extends Error {}

/** Verification on a database opened here, closed after. */
async function verifyOn(db: Db, close: () => Promise<unknown>, concurrency: number) {
  try {
    const rows = rowsOf<{ chained: boolean }>(
      await db.execute(sql`select to_regclass('audit_chain_heads') is not null as chained`),
    );
    if (!rows[0]?.chained)
      throw new Refused(
        'This database has no audit chain yet (it comes with migration 0048): start the server on it once, then verify.',
      );
    return await createAuditChainService({ db, concurrency }).verify();
  } finally {
    await close();
  }
}

async function verify(): Promise<{ result: AuditChainVerification; by: string }> {
  const settings = backupSettings(process.env);
  if (settings.databaseUrl) {
    const { Pool } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    // Ranges run four at a time, each on its own connection and, on the server, its own core.
    const pool = new Pool({ connectionString: settings.databaseUrl, max: 4 });
    const result = await verifyOn(drizzle(pool) as unknown as Db, () => pool.end(), 4);
    return { result, by: 'PostgreSQL (DATABASE_URL)' };
  }
  const answer = (await askServer(operatorSocketPath(settings.dataDir), { command: 'verify-audit' })) as
    AuditChainVerification | { error: string } | null;
  if (answer && 'error' in answer) throw new Refused(`The server refused: ${answer.error}`);
  if (answer) return { result: answer, by: `the running server on ${path.resolve(settings.dataDir)}` };

  const pgdata = path.join(settings.dataDir, 'pgdata');
  if (!(await stat(path.join(pgdata, 'PG_VERSION')).catch(() => null)))
    throw new Refused(`No embedded database in ${path.resolve(settings.dataDir)}: nothing to verify.`);
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { drizzle } = await import('drizzle-orm/pglite');
  const client = await PGlite.create({ dataDir: pgdata, extensions: { pg_trgm } });
  const result = await verifyOn(drizzle({ client }) as unknown as Db, () => client.close(), 1);
  return { result, by: `the embedded database in ${path.resolve(settings.dataDir)}` };
}

try {
  const { result, by } = await verify();
  if (json) console.log(JSON.stringify(result, null, 2));
  else {
    const verdict = result.whole ? 'The audit trail is whole' : 'The audit trail is BROKEN';
    console.log(`${verdict}: ${result.rowsChecked} rows checked in ${result.tookMs} ms, ${by}.`);
    for (const line of describeVerification(result)) console.log(`  ${line}`);
  }
  process.exitCode = result.whole ? 0 : 1;
} catch (error) {
  console.error(error instanceof Refused || error instanceof ConfigError ? error.message : error);
  process.exitCode = 1;
}
