import { randomBytes } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkLimit, bulkMessages } from '@app/contract/bulk-actions';
import { devices } from '#api/db/schema/devices.ts';
import { deviceForm } from '#api/test/device-fixtures.ts';
import { signedInApp } from '#api/test/signed-in-app.ts';
import type { TestApp } from '#api/test/test-app.ts';
import { deviceRequests } from './device-test-requests.ts';

/*
 * Decision 055's limit on a bulk status change over every device the list matches, at its real
 * size: 10,001 devices take seconds of the embedded database's time, so this runs in `npm test` and
 * not in the fast loop (vitest.fast.config.ts); devices-bulk-status.test.ts has the rest.
 */

let t: TestApp;
let token: string;
beforeAll(async () => ({ t, token } = await signedInApp()));
afterAll(() => t.close());
const { bulkStatus: bulk, statusOf } = deviceRequests(() => ({ t, token }));

describe('POST /api/v1/admin/machine/bulk-status with allMatching, at the limit', () => {
  it(`refuses more than ${bulkLimit} matching devices with a 400 saying how many, changing none`, async () => {
    const tag = `many${randomBytes(3).toString('hex')}`;
    // One set-based insert: 10,001 rows sent as values cost seconds of the embedded database's time.
    const form = deviceForm();
    await t.database.db.execute(sql`
      insert into devices (machine_number, serial_number, location, latitude, longitude, city, country, address)
      select 'MB-' || ${tag} || '-' || i, 'SB-' || ${tag} || '-' || i, ${`Bulk ${tag}`}, ${form.latitude},
             ${form.longitude}, ${form.city}, ${form.country}, ${form.address}
      from generate_series(0, ${bulkLimit}) as i`);
    // The first and the last of them, to see they are left as they were.
    const ends = [0, bulkLimit].map((i) => `MB-${tag}-${i}`);
    const res = await bulk({ allMatching: { search: tag }, status: 1 });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().msg).toBe(bulkMessages.tooMany(bulkLimit + 1));
    expect(res.json().msg).toBe('Too many rows: at most 10,000 at a time, and 10,001 match');
    const endRows = await t.database.db
      .select({ id: devices.id })
      .from(devices)
      .where(inArray(devices.machineNumber, ends));
    expect(endRows).toHaveLength(2);
    for (const { id } of endRows) expect(await statusOf(id)).toBe(2);
    await t.database.db.delete(devices).where(eq(devices.location, `Bulk ${tag}`));
  });
});
