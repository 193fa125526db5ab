import { recomputeLicences } from '../apps/api/src/modules/licences/licence-ledger.ts';

/**
 * Licences as a fleet has them (decision 068), for `npm run bench:devices`, when the database has
 * none yet (`npm run seed:scale` makes none): a paid subscription on six machines in seven, ending
 * from two months ago to ten months ahead (a tenth with a failed renewal), an exemption on 1 %,
 * nothing on the rest; then the ledger's own recompute of every machine. `c` is a pg client, `db`
 * the API's database on the same database.
 */
export async function giveLicencesIfNone(c, db) {
  const licensed = Number(
    (await c.query(`select count(*) as n from devices where licence_state <> 'unlicensed'`)).rows[0].n,
  );
  if (licensed > 0) return;
  console.error('giving the machines licences...');
  await c.query(`
    insert into subscriptions (id, full_name, email, machine_serial_number, amount_cents, is_recurring,
      plan_type, status, expired_at, paid_at, provider, device_id, paid_through, renewal_failed_at)
    select 'bench-' || d.id, 'Clinic ' || n, 'clinic' || n || '@example.test', d.serial_number, 9900, true,
      'month', 2, now() + ((n % 365) - 60) * interval '1 day', now() - interval '30 days', 'demo', d.id,
      now() + ((n % 365) - 60) * interval '1 day',
      case when n % 10 = 0 then now() - interval '2 days' end
    from (select id, serial_number, row_number() over (order by id) as n from devices) d
    where n % 7 <> 0 and not exists (select 1 from subscriptions s where s.device_id = d.id)`);
  await c.query(`
    insert into licence_exemptions (device_id, kind, reason, until)
    select id, 'trial', 'bench', now() + interval '90 days'
    from (select id, row_number() over (order by id) as n from devices) d where n % 100 = 3
    on conflict do nothing`);
  await recomputeLicences(db, {
    scope: { all: true },
    at: new Date(),
    graceDays: 14,
    why: { cause: 'payment' },
  });
  await c.query('vacuum analyze devices, subscriptions, licence_exemptions');
}
