import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rowsOf } from '#api/db/rows-of.ts';
import type { Database } from '../db/client.ts';
import { freshDatabase } from '../test/test-app.ts';
import { clientAddress, createAuditLog } from './audit.ts';
import { quietDeviceSuccess } from './audit-hooks.ts';
import { handlerName } from './audit-request-rows.ts';

let database: Database;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ database, drop } = await freshDatabase());
});
afterAll(() => drop());
beforeEach(async () => {
  // The log tables refuse TRUNCATE (append-only); as their owner, a test may lift that for a moment.
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`alter table access_logs disable trigger access_logs_no_truncate`);
    await tx.execute(sql`alter table error_logs disable trigger error_logs_no_truncate`);
    await tx.execute(sql`truncate access_logs, error_logs`);
    await tx.execute(sql`alter table access_logs enable trigger access_logs_no_truncate`);
    await tx.execute(sql`alter table error_logs enable trigger error_logs_no_truncate`);
  });
});

const countRows = async () => {
  const result = await database.db.execute<{ n: number }>(sql`select count(*)::int as n from access_logs`);
  return rowsOf<{ n: number }>(result)[0]!.n;
};
const row = (i: number) => ({
  resource: `GET /r/${i}`,
  userId: 'u',
  userEmail: 'u@example.com',
  location: '127.0.0.1',
});

describe('the audit writer', () => {
  it('holds rows in memory until its timer writes them in one batch', async () => {
    const audit = createAuditLog({ db: database.db, flushIntervalMs: 50 });
    for (let i = 0; i < 10; i++) audit.access(row(i));
    expect(await countRows()).toBe(0);
    await new Promise((r) => setTimeout(r, 200));
    expect(await countRows()).toBe(10);
    await audit.close();
  });

  it('writes at once when a batch is full', async () => {
    const audit = createAuditLog({ db: database.db, flushIntervalMs: 60_000, maxBatch: 20 });
    for (let i = 0; i < 20; i++) audit.access(row(i));
    await new Promise((r) => setTimeout(r, 100));
    expect(await countRows()).toBe(20);
    await audit.close();
  });

  it('writes what is left when closed', async () => {
    const audit = createAuditLog({ db: database.db, flushIntervalMs: 60_000 });
    audit.access(row(1));
    audit.error({ resource: 'GET /x', functionName: 'getX', statusCode: 500, message: 'boom' });
    await audit.close();
    expect(await countRows()).toBe(1);
  });

  it('never throws into the caller when the database refuses the rows, and drops the oldest past its bound', async () => {
    const errors: unknown[] = [];
    const audit = createAuditLog({
      db: database.db,
      flushIntervalMs: 60_000,
      maxBuffered: 5,
      log: { error: (o: unknown) => void errors.push(o), warn: () => {} } as never,
    });
    await database.db.execute(sql`alter table access_logs rename to access_logs_gone`);
    try {
      for (let i = 0; i < 8; i++) audit.access(row(i));
      await expect(audit.flush()).resolves.toBeUndefined();
      expect(errors.length).toBeGreaterThan(0);
    } finally {
      await database.db.execute(sql`alter table access_logs_gone rename to access_logs`);
    }
    await audit.flush();
    expect(await countRows()).toBe(5);
    await audit.close();
  });

  it('stores rows holding a NUL or a lone surrogate from the client, with U+FFFD in their place', async () => {
    const audit = createAuditLog({ db: database.db, flushIntervalMs: 60_000 });
    audit.access({ ...row(1), machineNumber: 'a\u0000b', userEmail: 'x\uD800@example.com' });
    audit.error({
      resource: 'GET /x',
      functionName: 'getX',
      statusCode: 400,
      message: 'bad \u0000',
      machineNumber: '\uDC00',
    });
    await audit.flush();
    const result = await database.db.execute(
      sql`select machine_number as m, user_email as e from access_logs`,
    );
    expect((result as unknown as { rows: unknown[] }).rows).toEqual([
      { m: 'a\uFFFDb', e: 'x\uFFFD@example.com' },
    ]);
    const errorsResult = await database.db.execute(
      sql`select message, machine_number as m from error_logs where function_name = 'getX'`,
    );
    expect((errorsResult as unknown as { rows: unknown[] }).rows).toEqual([
      { message: 'bad \uFFFD', m: '\uFFFD' },
    ]);
    expect(audit.stats()).toEqual({ buffered: 0, dropped: 0 });
    await audit.close();
  });

  it('drops only a row the database refuses, and writes the rest of its batch and every later one', async () => {
    const errors: unknown[] = [];
    const audit = createAuditLog({
      db: database.db,
      flushIntervalMs: 60_000,
      log: { error: (o: unknown) => void errors.push(o), warn: () => {} } as never,
    });
    // The location check (addresses only) refuses this row; clientAddress keeps such values out in the app.
    audit.access(row(1));
    audit.access({ ...row(2), location: 'not an address' });
    audit.access(row(3));
    await audit.flush();
    expect(await countRows()).toBe(2);
    expect(audit.stats()).toEqual({ buffered: 0, dropped: 1 });
    expect(errors).toHaveLength(1);
    // Nothing of the refused row is retried: the next rows land on their own.
    audit.access(row(4));
    await audit.flush();
    expect(await countRows()).toBe(3);
    expect(audit.stats()).toEqual({ buffered: 0, dropped: 1 });
    await audit.close();
  });

  it('keeps the log counters equal to the rows written', async () => {
    const audit = createAuditLog({ db: database.db });
    for (let i = 0; i < 7; i++) audit.access({ ...row(i), machineNumber: i < 3 ? 'M1' : null });
    await audit.close();
    const result = await database.db.execute(
      sql`select scope, key, n::int as n from log_counters where log_kind = 'access' order by scope, key`,
    );
    expect(rowsOf(result)).toEqual([
      { scope: 'address', key: '127.0.0.1', n: 7 },
      { scope: 'all', key: '', n: 7 },
      { scope: 'email', key: 'u@example.com', n: 7 },
      { scope: 'machine', key: 'M1', n: 3 },
      ...Array.from({ length: 7 }, (_, i) => ({ scope: 'resource', key: `GET /r/${i}`, n: 1 })),
      { scope: 'user', key: 'u', n: 7 },
    ]);
  });
});

describe('handlerName', () => {
  it('uses the handler function name, without the bound prefix', () => {
    expect(handlerName('GET', '/api/v1/admin/users/all', { name: 'bound listUsers' })).toBe('listUsers');
  });
  it('derives a name from the method and route for anonymous handlers', () => {
    expect(handlerName('GET', '/api/v1/admin/access-logs/all', { name: '' })).toBe('getAccessLogsAll');
    expect(handlerName('PUT', '/api/v1/admin/machine/:id', { name: 'bound ' })).toBe('putMachineById');
    expect(handlerName('GET', undefined)).toBe('notFound');
  });
});

describe('clientAddress', () => {
  it('keeps IPv4 and IPv6 addresses and drops anything else a forwarded header could carry', () => {
    expect(clientAddress({ ip: '10.1.2.3' })).toBe('10.1.2.3');
    expect(clientAddress({ ip: '::ffff:127.0.0.1' })).toBe('::ffff:127.0.0.1');
    expect(clientAddress({ ip: '<script>alert(1)</script>' })).toBeNull();
    expect(clientAddress({ ip: 'Nairobi' })).toBeNull();
  });
});

describe('quietDeviceSuccess', () => {
  const request = (config: Record<string, unknown>) =>
    ({ routeOptions: { config } }) as unknown as Parameters<typeof quietDeviceSuccess>[0];
  it("skips only a machine's successful calls that are not security events", () => {
    expect(quietDeviceSuccess(request({ access: 'device' }), 200)).toBe(true);
    expect(quietDeviceSuccess(request({ access: 'app-user' }), 201)).toBe(true);
    expect(quietDeviceSuccess(request({ access: 'app-user' }), 403)).toBe(false);
    expect(quietDeviceSuccess(request({ access: 'device', securityEvent: 'login' }), 200)).toBe(false);
    expect(quietDeviceSuccess(request({ access: 'admin' }), 200)).toBe(false);
    expect(quietDeviceSuccess(request({ access: 'public' }), 200)).toBe(false);
  });
});
