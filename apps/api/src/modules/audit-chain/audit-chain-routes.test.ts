import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditChainPaths, type AuditChainVerification } from '@app/contract/audit-chain';
import { logInWords } from '@app/contract/log-words';
import { signInWithPermissions } from '#api/test/admin-with-permissions.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import { createAuditChainService } from './audit-chain-service.ts';
import { idAt, tamper } from './audit-chain-test-helpers.ts';

/*
 * GET /api/v1/admin/audit/verify (decision 080): over the rows the API itself wrote for real
 * requests, whole, then broken by a change made in the database behind the API's back.
 */

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  for (let i = 0; i < 5; i++) {
    await t.injectAs(token, { method: 'GET', url: '/api/v1/admin/roles/all' });
    await t.injectAs(token, { method: 'GET', url: '/api/v1/admin/machine/no-such-machine' });
  }
  await t.app.audit.flush();
});
afterAll(() => t.close());

const verifyAs = async (as = token) => {
  const res = await t.injectAs(as, { method: 'GET', url: auditChainPaths.verify });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as AuditChainVerification;
};

describe('GET /api/v1/admin/audit/verify', () => {
  it("answers that both chains are whole over the API's own rows, with the rows checked", async () => {
    const result = await verifyAs();
    expect(result.whole).toBe(true);
    const [access, error] = result.chains;
    expect(access).toMatchObject({ log: 'access', whole: true, fromSeq: 1, firstBreak: null });
    expect(access!.rowsChecked).toBeGreaterThanOrEqual(10);
    expect(access!.toSeq).toBe(access!.rowsChecked);
    expect(access!.headHash).toMatch(/^[0-9a-f]{64}$/);
    expect(error).toMatchObject({ log: 'error', whole: true, firstBreak: null });
    expect(error!.rowsChecked).toBeGreaterThanOrEqual(5);
    expect(result.rowsChecked).toBe(access!.rowsChecked + error!.rowsChecked);
  });

  it('is itself in the audit trail, in words', async () => {
    await t.app.audit.flush();
    const res = await t.injectAs(token, {
      method: 'GET',
      url: '/api/v1/admin/access-logs/all?search=audit/verify',
    });
    expect(res.statusCode, res.body).toBe(200);
    const [row] = res.json().data.logs as Array<{ resource: string; statusCode: number }>;
    expect(row).toMatchObject({ resource: 'GET /api/v1/admin/audit/verify', statusCode: 200 });
    expect(logInWords({ resource: row!.resource, machineNumber: null })?.text).toBe(
      "Verified the audit logs' hash chains",
    );
  });

  it('names the first broken link: the place, the row and what is wrong', async () => {
    const id = await idAt(t.database.db, 'error_logs', 3);
    await tamper(t.database.db, 'error_logs', sql`update error_logs set status_code = 200 where id = ${id}`);
    const result = await verifyAs();
    expect(result.whole).toBe(false);
    expect(result.chains[0]!.whole).toBe(true);
    expect(result.chains[1]!.firstBreak).toMatchObject({ chainSeq: 3, id, problem: 'altered' });
  });

  it('is refused to an admin who may not read the logs, and answered to one who may', async () => {
    const without = await signInWithPermissions(t, token, ['devices.view']);
    const refused = await t.injectAs(without.token, { method: 'GET', url: auditChainPaths.verify });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().msg).toContain('logs.view');
    const reader = await signInWithPermissions(t, token, ['logs.view']);
    expect((await verifyAs(reader.token)).chains).toHaveLength(2);
  });

  it('runs one verification at a time: a caller while one runs gets its answer', async () => {
    const service = createAuditChainService({ db: t.database.db });
    const [a, b] = [service.verify(), service.verify()];
    expect(a).toBe(b);
    await a;
    expect(service.verify()).not.toBe(a);
  });
});
