import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { AuditChainVerification } from '@app/contract/audit-chain';
import { openDatabase } from '#api/db/client.ts';
import { listenForOperator } from '#api/lib/operator-socket.ts';
import { scratchDatabase } from '#api/test/test-app.ts';
import { createAuditChainService } from './audit-chain-service.ts';
import { fillLogs, idAt, tamper } from './audit-chain-test-helpers.ts';

/*
 * `npm run audit:verify` as an operator runs it, as a process of its own (decision 080): exit status
 * 0 only when every chain is whole, 1 when one is broken, 2 on bad use.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');
/** Asynchronous, so a server in this process can answer it. */
const cli = (env: Record<string, string>, ...args: string[]) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'apps/api/src/modules/audit-chain/audit-verify-cli.ts', ...args],
      { cwd: root, env: { ...process.env, DATABASE_URL: '', ...env } },
    );
    let [stdout, stderr] = ['', ''];
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });

describe('npm run audit:verify', () => {
  it('on the embedded database: asks the running server, or opens it when none runs; 0 when whole, 1 when broken', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'audit-verify-cli-'));
    try {
      const database = await openDatabase({ dataDir });
      await fillLogs(database.db, 300);
      // What server.ts starts next to the embedded database.
      const operator = await listenForOperator(
        dataDir,
        { 'verify-audit': () => createAuditChainService({ db: database.db }).verify() },
        { warn: (message) => expect.fail(message) },
      );
      const whole = await cli({ DATA_DIR: dataDir });
      expect(whole.status, whole.stderr).toBe(0);
      expect(whole.stdout).toMatch(
        /^The audit trail is whole: 330 rows checked in \d+ ms, the running server/,
      );
      expect(whole.stdout).toContain("The access log's chain is whole: 300 rows checked (places 1 to 300)");

      const id = await idAt(database.db, 'access_logs', 120);
      await tamper(
        database.db,
        'access_logs',
        sql`update access_logs set user_email = 'nobody@example.com' where id = ${id}`,
      );
      const broken = await cli({ DATA_DIR: dataDir });
      expect(broken.status).toBe(1);
      expect(broken.stdout).toContain("The access log's chain is BROKEN (altered): Row");
      expect(broken.stdout).toContain(`(place 120)`);
      expect(broken.stdout).toContain("The error log's chain is whole");

      // The server stopped: the command opens the data directory itself.
      await operator.close();
      await database.close();
      const direct = await cli({ DATA_DIR: dataDir }, '--json');
      expect(direct.status, direct.stderr).toBe(1);
      const report = JSON.parse(direct.stdout) as AuditChainVerification;
      expect(report.chains[0]!.firstBreak).toMatchObject({ chainSeq: 120, id, problem: 'altered' });

      expect((await cli({ DATA_DIR: dataDir }, '--everything')).status).toBe(2);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);

  it('says so when there is no embedded database to verify', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'audit-verify-none-'));
    try {
      const none = await cli({ DATA_DIR: dataDir });
      expect([none.status, none.stderr.trim()]).toEqual([
        1,
        `No embedded database in ${path.resolve(dataDir)}: nothing to verify.`,
      ]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it.runIf(process.env.DATABASE_URL)(
    'on PostgreSQL (DATABASE_URL): 0 when whole, 1 once a row in the middle is deleted',
    async () => {
      const scratch = await scratchDatabase(process.env.DATABASE_URL!);
      const database = await openDatabase({ databaseUrl: scratch.url, dataDir: null });
      try {
        await fillLogs(database.db, 2_000);
        const whole = await cli({ DATABASE_URL: scratch.url }, '--json');
        expect(whole.status, whole.stderr).toBe(0);
        expect(JSON.parse(whole.stdout)).toMatchObject({ whole: true, rowsChecked: 2_200 });

        await tamper(database.db, 'error_logs', sql`delete from error_logs where chain_seq = 100`);
        const broken = await cli({ DATABASE_URL: scratch.url });
        expect(broken.status).toBe(1);
        expect(broken.stdout).toContain(
          "The error log's chain is BROKEN (missing): Before row 101 (place 101), place 100 holds no row (deleted).",
        );
      } finally {
        await database.close();
        await scratch.drop();
      }
    },
    120_000,
  );
});
