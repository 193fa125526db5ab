// The rows `npm run seed:scale` makes (seed-scale-cli.ts), as SQL run inside the database: row n is
// always the same row. The series is bigint, so every product of a row number (`g * 7919` for the
// serial number, `g * 31` for the location, ...) is bigint arithmetic: as int4 the serial number's
// overflowed past row 271,181 ("integer out of range") and a 1,000,000-machine seed stopped there.
// Below that row every value is what the int4 arithmetic gave, so a database seeded before still
// resumes into the same rows.
import { sql } from 'drizzle-orm';
import { cities, districts, practices } from '@app/fake-data/places';
import type { Db } from '../db/client.ts';

const textArray = (items: readonly string[]) =>
  sql.raw(`ARRAY[${items.map((t) => `'${t.replace(/'/g, "''")}'`).join(',')}]`);
const cityList = textArray(cities.map((c) => c.city));
const countryList = textArray(cities.map((c) => c.country));
const latList = sql.raw(`ARRAY[${cities.map((c) => c.lat).join(',')}]::float8[]`);
const lonList = sql.raw(`ARRAY[${cities.map((c) => c.lon).join(',')}]::float8[]`);
const places = textArray(districts);
const kinds = textArray(practices);
const resources = sql.raw(
  `ARRAY['GET /api/v1/admin/machine','GET /api/v1/admin/machine/:id','PUT /api/v1/admin/machine/:id','GET /api/v1/admin/doctor/all','GET /api/v1/admin/patient/all','POST /api/v1/app/login','POST /api/v1/app/treatments','POST /api/v1/app/treatments/images','GET /api/v1/app/updates/latest']`,
);

/** Device n: SC-0000001 …; created one minute apart, ending a little before the anchor. */
export const insertDevices = (db: Db, from: number, to: number) =>
  db.execute(sql`
    insert into devices (machine_number, serial_number, location, latitude, longitude, city, country, address, status, subscription_status, created_at, updated_at)
    select 'SC-' || lpad(g::text, 7, '0'),
           'SCS-' || lpad(((g * 7919) % 10000000)::text, 7, '0') || '-' || g,
           (${places})[1 + (g * 31) % ${districts.length}] || ' ' || (${kinds})[1 + (g * 17) % ${practices.length}],
           round(((${latList})[1 + g % ${cities.length}] + ((g * 13) % 600 - 300) / 10000.0)::numeric, 4)::float8,
           round(((${lonList})[1 + g % ${cities.length}] + ((g * 29) % 600 - 300) / 10000.0)::numeric, 4)::float8,
           (${cityList})[1 + g % ${cities.length}],
           (${countryList})[1 + g % ${cities.length}],
           (1 + g % 240) || ' Bench Street',
           case when g % 6 = 0 then 1 else 2 end,
           case when g % 5 = 0 then null else 1 + g % 4 end,
           timestamptz '2025-01-01 00:00:00+00' + g * interval '1 minute',
           timestamptz '2025-01-01 00:00:00+00' + g * interval '1 minute'
    from generate_series(${from}::bigint, ${to}::bigint) g`);

/**
 * Log n: nine in ten are access logs (the caller holds the transaction, with its progress row). Logs come in bursts: 50 in a row name the same bulk device and
 * 20 in a row the same one of 5,000 users, so each batch touches few per-device and per-user counters.
 */
export async function insertLogs(db: Db, from: number, to: number, deviceCount: number) {
  const machine =
    deviceCount > 0 ? sql`'SC-' || lpad((1 + (g / 50) % ${deviceCount})::text, 7, '0')` : sql`null`;
  await db.execute(sql`
      insert into access_logs (created_at, user_id, user_email, resource, location, status_code, duration_ms, machine_number)
      select timestamptz '2025-01-01 00:00:00+00' + g * interval '5 seconds',
             (100000 + (g / 20) % 5000)::text, 'user' || ((g / 20) % 5000) || '@example.com',
             (${resources})[1 + (g * 11) % 9],
             '198.51.100.' || (1 + g % 250), 200, 5 + g % 300, ${machine}
      from generate_series(${from}::bigint, ${to}::bigint) g where g % 10 <> 0`);
  await db.execute(sql`
      insert into error_logs (created_at, user_id, user_email, resource, function_name, status_code, message, location, machine_number)
      select timestamptz '2025-01-01 00:00:00+00' + g * interval '5 seconds',
             (100000 + (g / 20) % 5000)::text, 'user' || ((g / 20) % 5000) || '@example.com',
             (${resources})[1 + (g * 11) % 9], 'handler' || (g % 40), 400 + (g % 5), 'Bench error ' || (g % 97),
             '198.51.100.' || (1 + g % 250), ${machine}
      from generate_series(${from}::bigint, ${to}::bigint) g where g % 10 = 0`);
}
