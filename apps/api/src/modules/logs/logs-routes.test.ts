import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessLogs, errorLogs } from '#api/db/schema/logs.ts';
import { signedInApp } from '#api/test/signed-in-app.ts';
import { testAdmin, type TestApp } from '#api/test/test-app.ts';
import { logRequests } from './logs-test-requests.ts';

let t: TestApp;
let token: string;
beforeAll(async () => ({ t, token } = await signedInApp()));
afterAll(() => t.close());
const { accessLogsAll, errorLogsAll } = logRequests(() => ({ t, token }));

describe('the audit trail', () => {
  it('writes an access row for an authenticated request, without any secret', async () => {
    const res = await t.injectAs(token, {
      method: 'GET',
      url: '/api/v1/admin/users/all?search=TopSecretValue&page=1',
    });
    expect(res.statusCode).toBe(200);
    await t.app.audit.flush();
    const me = (await t.injectAs(token, { method: 'GET', url: '/api/v1/admin/profile' })).json().data._id;
    await t.app.audit.flush();
    const { logs } = await accessLogsAll(`?userId=${me}`);
    const row = logs.find((l: { resource: string }) => l.resource === 'GET /api/v1/admin/users/all');
    expect(row).toMatchObject({
      userEmail: testAdmin.email,
      location: '127.0.0.1',
      statusCode: 200,
      user: { email: testAdmin.email },
    });
    expect(row.time).toBe(row.createdTime);
    const everything = JSON.stringify([
      await t.database.db.select().from(accessLogs),
      await t.database.db.select().from(errorLogs),
    ]);
    expect(everything).not.toContain('TopSecretValue');
    expect(everything).not.toContain(token);
    expect(everything).not.toContain(testAdmin.password);
  });

  it('writes an error row with the handler name, the msg and the user for a failed request', async () => {
    const res = await t.injectAs(token, {
      method: 'PUT',
      url: '/api/v1/admin/users/00000000-0000-4000-8000-000000000000',
      payload: { firstName: '', password: 'Hunter2-secret' },
    });
    expect(res.statusCode).toBe(400);
    await t.app.audit.flush();
    const { logs } = await errorLogsAll('?search=updateUser');
    expect(logs[0]).toMatchObject({
      resource: 'PUT /api/v1/admin/users/:id',
      functionName: 'updateUser',
      statusCode: 400,
      message: expect.stringContaining('First name is required'),
      userEmail: testAdmin.email,
    });
    expect(logs[0].utcTime).toMatch(/Z$/);
    expect(JSON.stringify(logs)).not.toContain('Hunter2-secret');
  });

  it('logs a failed sign-in without the password and without a user', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/login',
      payload: { email: 'intruder@example.com', password: 'Guess-Passw0rd' },
    });
    await t.app.audit.flush();
    const { logs } = await errorLogsAll('?search=login');
    expect(logs[0]).toMatchObject({
      resource: 'POST /api/v1/admin/login',
      statusCode: 401,
      user: null,
      userEmail: null,
    });
    expect(JSON.stringify(logs)).not.toContain('Guess-Passw0rd');
  });

  it('names unknown routes by their path, without the query string or long tokens', async () => {
    await t.injectAs(token, {
      method: 'GET',
      url: '/api/v1/admin/reset/abcdefghijklmnopqrstuvwxyz012345?otp=123456',
    });
    await t.app.audit.flush();
    const { logs } = await errorLogsAll('?search=reset');
    expect(logs[0]).toMatchObject({
      resource: 'GET /api/v1/admin/reset/:redacted',
      functionName: 'notFound',
      statusCode: 404,
    });
  });

  it("files a console list filtered by a machine under the admin, not among the machine's own logs", async () => {
    const res = await t.injectAs(token, {
      method: 'GET',
      url: '/api/v1/admin/doctor/all?machineNumber=MN-FILTER',
    });
    expect(res.statusCode).toBe(200);
    await t.app.audit.flush();
    const rows = await t.database.db
      .select({ machineNumber: accessLogs.machineNumber, userEmail: accessLogs.userEmail })
      .from(accessLogs)
      .where(sql`${accessLogs.resource} = 'GET /api/v1/admin/doctor/all'`);
    expect(rows).toEqual([{ machineNumber: null, userEmail: testAdmin.email }]);
    expect((await accessLogsAll('?machineNumber=MN-FILTER')).logs).toEqual([]);
  });

  it('records who viewed which record, so "who looked at this patient" has an answer', async () => {
    const auth = { userId: 'viewer-1', sessionId: 's', email: 'viewer@example.com' };
    await t.app.audit.recordView({ auth, ip: '10.1.2.3' } as never, {
      kind: 'patient',
      id: 'p-42',
      machineNumber: 'M-7',
    });
    const { logs } = await accessLogsAll('?recordId=p-42');
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({
      resource: 'VIEW patient p-42',
      recordKind: 'patient',
      recordId: 'p-42',
      userEmail: 'viewer@example.com',
      location: '10.1.2.3',
      machineNumber: 'M-7',
    });
    expect((await accessLogsAll('?search=patient p-42')).logs).toHaveLength(1);
    expect((await errorLogsAll('?recordId=p-42')).logs).toHaveLength(0);
  });

  it('has a write and a record view in the trail before the answer arrives (a crash right after loses neither)', async () => {
    const created = await t.injectAs(token, {
      method: 'POST',
      url: '/api/v1/admin/roles',
      payload: { roleName: 'Audited before answer', type: 'app' },
    });
    expect(created.statusCode).toBe(201);
    // No flush: the row must already be there.
    const writes = await t.database.db
      .select()
      .from(accessLogs)
      .where(sql`${accessLogs.resource} = 'POST /api/v1/admin/roles'`);
    expect(writes.map((r) => r.statusCode)).toContain(201);

    const auth = { userId: 'viewer-2', sessionId: 's', email: 'viewer2@example.com' };
    const request = { auth, ip: '10.1.2.4', method: 'GET' } as { auditRecordViewed?: boolean };
    await t.app.audit.recordView(request as never, { kind: 'patient', id: 'p-77' });
    expect(request.auditRecordViewed).toBe(true);
    // No flush: the view's own row is committed when recordView resolves (decision 064).
    const views = await t.database.db
      .select({ resource: accessLogs.resource })
      .from(accessLogs)
      .where(sql`${accessLogs.recordId} = 'p-77'`);
    expect(views).toEqual([{ resource: 'VIEW patient p-77' }]);
  });

  it('keeps answering requests while the log tables cannot be written', async () => {
    await t.database.db.execute(sql`alter table access_logs rename to access_logs_away`);
    try {
      const res = await t.injectAs(token, { method: 'GET', url: '/api/v1/admin/roles/all?limit=1' });
      expect(res.statusCode).toBe(200);
      // A write waits for its row, but never fails for it.
      const write = await t.injectAs(token, {
        method: 'POST',
        url: '/api/v1/admin/roles',
        payload: { roleName: 'Logged later', type: 'app' },
      });
      expect(write.statusCode).toBe(201);
      await expect(t.app.audit.flush()).resolves.toBeUndefined();
    } finally {
      await t.database.db.execute(sql`alter table access_logs_away rename to access_logs`);
    }
    // The rows were kept and land on the next write.
    await t.app.audit.flush();
    const { logs } = await accessLogsAll('?search=roles/all');
    expect(logs.length).toBeGreaterThan(0);
  });
});
