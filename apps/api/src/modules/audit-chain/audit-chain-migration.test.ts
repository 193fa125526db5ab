import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '#api/db/client.ts';
import { migrationsBefore, openBare, type BareDatabase } from '#api/test/bare-database.ts';

/*
 * Migration 0048 (decision 080, "Rows from before the chain"): on a database that already has audit
 * rows, the chain starts at the migration. The old rows keep no place and are not reported; the
 * head remembers the highest id they reached, so a row without a place above it is.
 */

let bare: BareDatabase;
let before: string;
beforeAll(async () => {
  bare = await openBare();
  before = migrationsBefore('_audit_hash_chain');
});
afterAll(async () => {
  await bare.close();
  rmSync(before, { recursive: true, force: true });
});

describe('the audit hash chain migration', () => {
  it('starts the chain after the rows already there, which keep no place', async () => {
    await bare.migrate(before);
    await bare.query(
      `insert into access_logs (resource) select 'GET /old/' || g from generate_series(1, 25) g`,
    );
    await bare.query(`insert into error_logs (resource, function_name) values ('GET /old', 'old')`);

    await bare.migrate(migrationsFolder);

    expect(
      await bare.query(
        `select log, last_seq::int, start_seq::int, unchained_up_to_id::int from audit_chain_heads order by log`,
      ),
    ).toEqual([
      { log: 'access', last_seq: 0, start_seq: 1, unchained_up_to_id: 25 },
      { log: 'error', last_seq: 0, start_seq: 1, unchained_up_to_id: 1 },
    ]);
    await bare.query(`insert into access_logs (resource) values ('GET /new/1'), ('GET /new/2')`);
    expect(
      await bare.query(
        `select id::int, chain_seq::int, chain_hash is not null as hashed from access_logs where id > 24 order by id`,
      ),
    ).toEqual([
      { id: 25, chain_seq: null, hashed: false },
      { id: 26, chain_seq: 1, hashed: true },
      { id: 27, chain_seq: 2, hashed: true },
    ]);
    // The old rows are below the head's mark; the partial index finds none above it.
    expect(
      await bare.query(
        `select count(*)::int as n from access_logs where chain_seq is null
           and id > (select unchained_up_to_id from audit_chain_heads where log = 'access')`,
      ),
    ).toEqual([{ n: 0 }]);
  });
});
