import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, count, gte } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { devices } from '../db/schema/devices.ts';
import { accessLogs, errorLogs } from '../db/schema/logs.ts';
import { freshDatabase } from '../test/test-app.ts';
import { insertDevices, insertLogs } from './seed-scale-rows.ts';

let db: Db;
let drop: () => Promise<void>;
beforeAll(async () => {
  const fresh = await freshDatabase();
  db = fresh.database.db;
  drop = fresh.drop;
});
afterAll(() => drop());

/** The serial number of bulk machine n, as the seed has always made it (int4 arithmetic while it fitted). */
const serialOf = (n: number) => `SCS-${String((BigInt(n) * 7919n) % 10_000_000n).padStart(7, '0')}-${n}`;

describe('the scale seed rows', () => {
  it('makes machines past row 271,181, where int4 arithmetic overflowed, up to a million', async () => {
    // 271,181 * 7919 is still below 2^31; 271,182 * 7919 is not.
    await insertDevices(db, 271_180, 271_183);
    await insertDevices(db, 999_999, 1_000_000);
    const rows = await db
      .select({ machineNumber: devices.machineNumber, serialNumber: devices.serialNumber })
      .from(devices)
      .where(gte(devices.machineNumber, 'SC-'))
      .orderBy(asc(devices.machineNumber));
    expect(rows).toEqual(
      [271_180, 271_181, 271_182, 271_183, 999_999, 1_000_000].map((n) => ({
        machineNumber: `SC-${String(n).padStart(7, '0')}`,
        serialNumber: serialOf(n),
      })),
    );
  });

  it('makes log rows past row 195,225,786, where int4 arithmetic overflowed', async () => {
    await insertLogs(db, 195_225_781, 195_225_800, 1_000_000);
    const [access] = await db.select({ n: count() }).from(accessLogs);
    const [errors] = await db.select({ n: count() }).from(errorLogs);
    expect([access!.n, errors!.n]).toEqual([18, 2]);
  });
});
