import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '#api/db/client.ts';
import { accessLogs, errorLogs } from '#api/db/schema/logs.ts';
import { createAuditLog } from '#api/lib/audit.ts';
import { freshDatabase } from '#api/test/test-app.ts';
import { createAuditChainService } from './audit-chain-service.ts';
import { fillLogs, headSeq, idAt, rowsFrom, tamper } from './audit-chain-test-helpers.ts';

/*
 * Decision 080: every audit row is chained by the database itself, whoever writes it, and a row
 * changed, removed or slipped in afterwards is found, at its place. On PGlite and, with
 * DATABASE_URL, on PostgreSQL, where the writers below run on connections of their own at once.
 */

let database: Database;
let drop: () => Promise<void>;
beforeAll(async () => ({ database, drop } = await freshDatabase()));
afterAll(() => drop());

const db = () => database.db;
// Small ranges, several at a time: breaks fall inside and on the edges of ranges.
const verify = (rangeRows = 97) => createAuditChainService({ db: db(), rangeRows, concurrency: 3 }).verify();
const chain = async (log: 'access' | 'error', rangeRows?: number) =>
  (await verify(rangeRows)).chains.find((c) => c.log === log)!;

describe('the audit chain as it is written', () => {
  it('stays whole through batched writers, transactions on both logs and concurrent statements', async () => {
    const writers = [1, 2, 3].map(() => createAuditLog({ db: db(), flushIntervalMs: 5, maxBatch: 40 }));
    const pushes = writers.flatMap((w, i) =>
      Array.from({ length: 100 }, (_, j) => {
        w.access({ resource: `GET /writer/${i}/${j}`, userEmail: `w${i}@example.com`, statusCode: 200 });
        if (j % 5 === 0) w.error({ resource: `GET /writer/${i}`, functionName: `f${j}`, statusCode: 500 });
      }),
    );
    expect(pushes).toHaveLength(300);
    // Transactions writing both logs, in both orders: one lock for both, so none waits on another.
    const transactions = Array.from({ length: 8 }, (_, i) =>
      db().transaction(async (tx) => {
        const access = () =>
          tx.insert(accessLogs).values([{ resource: `tx ${i} a` }, { resource: `tx ${i} b` }]);
        const error = () => tx.insert(errorLogs).values({ resource: `tx ${i}`, functionName: 'tx' });
        if (i % 2) await access().then(error);
        else await error().then(access);
      }),
    );
    const statements = Array.from({ length: 4 }, (_, i) => fillLogs(db(), 50, `stmt${i}`));
    await Promise.all([...transactions, ...statements, ...writers.map((w) => w.close())]);

    const [counts] = await rowsFrom<{ a: number; e: number }>(
      db(),
      sql`select (select count(*) from access_logs)::int as a, (select count(*) from error_logs)::int as e`,
    );
    const result = await verify();
    expect(result.whole).toBe(true);
    expect(result.chains.map((c) => [c.log, c.rowsChecked, c.toSeq, c.firstBreak])).toEqual([
      ['access', counts!.a, counts!.a, null],
      ['error', counts!.e, counts!.e, null],
    ]);
    expect(counts!.a).toBe(300 + 16 + 200);
    // Each row's place is unique and the places are 1..n: no gaps, whatever order the ids came in.
    const [places] = await rowsFrom<{ n: number; max: string }>(
      db(),
      sql`select count(distinct chain_seq)::int as n, max(chain_seq)::text as max from access_logs`,
    );
    expect(places).toEqual({ n: counts!.a, max: String(counts!.a) });
  });

  it("gives a machine's re-sent row no place: ON CONFLICT DO NOTHING drops it after the trigger ran", async () => {
    const before = await headSeq(db(), 'access');
    const ids = ['1', '2', '3'].map((d) => `00000000-0000-4000-8000-00000000000${d}`);
    const send = (clientIds: string[]) =>
      db()
        .insert(accessLogs)
        .values(
          clientIds.map((clientId) => ({ resource: 'POST /api/v1/app/x', machineNumber: 'MN-1', clientId })),
        )
        .onConflictDoNothing({
          target: [accessLogs.machineNumber, accessLogs.clientId],
          where: sql`client_id is not null`,
        });
    await send(ids.slice(0, 2));
    // A retry with one new row, and the same row twice in one statement.
    await send([ids[0]!, ids[1]!, ids[2]!, ids[2]!]);
    expect(await headSeq(db(), 'access')).toBe(before + 3);
    expect((await chain('access')).whole).toBe(true);
  });

  it('keeps settings nobody asked for off the session: the running place is local to the transaction', async () => {
    await db().insert(accessLogs).values({ resource: 'GET /x' });
    const [row] = await rowsFrom<{ s: string | null }>(
      db(),
      sql`select current_setting('audit_chain.access', true) as s`,
    );
    expect(row!.s ?? '').toBe('');
  });
});

describe('a broken chain', () => {
  let first: number;
  let access: number;
  beforeEach(async () => {
    // Each test breaks a chain of its own: the starting point moves past the rows so far, as a
    // retention job's checkpoint would, and 250 new rows follow.
    await db().execute(sql`update audit_chain_heads set start_seq = last_seq + 1, start_hash = last_hash`);
    first = (await headSeq(db(), 'access')) + 1;
    await fillLogs(db(), 250, 'break');
    access = await headSeq(db(), 'access');
    expect(access - first).toBe(249);
    expect((await verify()).whole).toBe(true);
  });

  it('is found at a row whose column was changed in the database, with its id and time', async () => {
    const seq = first + 150;
    const id = await idAt(db(), 'access_logs', seq);
    await tamper(db(), 'access_logs', sql`update access_logs set status_code = 201 where id = ${id}`);
    const found = await chain('access');
    expect(found.whole).toBe(false);
    expect(found.firstBreak).toMatchObject({ chainSeq: seq, id, problem: 'altered' });
    expect(found.firstBreak!.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(found.firstBreak!.detail).toContain(`Row ${id} (place ${seq}) does not hash to its stored hash`);
    // The same with one range for the whole chain.
    expect((await chain('access', 1_000_000)).firstBreak).toMatchObject({
      chainSeq: seq,
      problem: 'altered',
    });
  });

  it('is found where rows in the middle were deleted, at the row after them', async () => {
    const seq = first + 200;
    await tamper(db(), 'access_logs', sql`delete from access_logs where chain_seq in (${seq}, ${seq + 1})`);
    const found = await chain('access');
    expect(found.firstBreak).toMatchObject({
      chainSeq: seq + 2,
      id: await idAt(db(), 'access_logs', seq + 2),
      problem: 'missing',
    });
    expect(found.firstBreak!.detail).toContain(`places ${seq} to ${seq + 1} hold no rows`);
  });

  it('is found where the last row of a range was deleted (the next range reads the row before it)', async () => {
    await tamper(db(), 'access_logs', sql`delete from access_logs where chain_seq = ${first + 96}`);
    const found = await chain('access');
    expect(found.firstBreak).toMatchObject({ chainSeq: first + 97, problem: 'missing' });
    expect(found.firstBreak!.detail).toContain(`place ${first + 96} holds no row`);
  });

  it('is found when the newest rows were deleted: the head still names them', async () => {
    await tamper(db(), 'access_logs', sql`delete from access_logs where chain_seq > ${access - 2}`);
    const found = await chain('access');
    expect(found.firstBreak).toEqual({
      chainSeq: access - 1,
      id: null,
      createdAt: null,
      problem: 'missing',
      detail: `The chain ends at place ${access - 2} but its head says ${access}: places ${access - 1} to ${access} hold no rows (deleted).`,
    });
    expect(found.toSeq).toBe(access);
  });

  it('is found when the newest row was rewritten with its hash recomputed: the head kept the old hash', async () => {
    const newest = await headSeq(db(), 'error');
    const rehash = sql`update error_logs l set chain_hash = sha256(p.chain_hash || error_log_chain_text(l))
      from error_logs p where l.chain_seq = ${newest} and p.chain_seq = ${newest - 1}`;
    await tamper(
      db(),
      'error_logs',
      sql`update error_logs set message = 'nothing happened' where chain_seq = ${newest}`,
    );
    expect((await chain('error')).firstBreak).toMatchObject({ chainSeq: newest, problem: 'altered' });
    await tamper(db(), 'error_logs', rehash);
    const found = await chain('error');
    expect(found.firstBreak).toMatchObject({ chainSeq: newest, problem: 'altered' });
    expect(found.firstBreak!.detail).toContain("is not the one the chain's head recorded");
  });

  it('is found at a row slipped in with the chain trigger off', async () => {
    await tamper(
      db(),
      'access_logs',
      sql`insert into access_logs (resource) values ('GET /nothing-to-see')`,
      'zz_access_logs_chain',
    );
    const [row] = await rowsFrom<{ id: string }>(db(), sql`select max(id)::text as id from access_logs`);
    const found = await chain('access');
    expect(found.firstBreak).toMatchObject({ chainSeq: null, id: Number(row!.id), problem: 'unchained' });
    expect(found.rowsChecked).toBe(250);
    await tamper(
      db(),
      'access_logs',
      sql`delete from access_logs where chain_seq is null and id = ${row!.id}`,
    );
  });

  it('is whole again from the checkpoint a retention job records when it removes the oldest rows', async () => {
    const keep = first + 200;
    const [last] = await rowsFrom<{ hash: string }>(
      db(),
      sql`select encode(chain_hash, 'hex') as hash from access_logs where chain_seq = ${keep - 1}`,
    );
    await tamper(db(), 'access_logs', sql`delete from access_logs where chain_seq < ${keep}`);
    // Removed without moving the starting point: the first kept row's link is broken.
    expect((await chain('access')).firstBreak).toMatchObject({ chainSeq: keep, problem: 'missing' });
    await db().execute(
      sql`update audit_chain_heads set start_seq = ${keep}, start_hash = decode(${last!.hash}, 'hex') where log = 'access'`,
    );
    const found = await chain('access');
    expect(found).toMatchObject({
      whole: true,
      fromSeq: keep,
      toSeq: access,
      rowsChecked: access - keep + 1,
    });
  });
});
