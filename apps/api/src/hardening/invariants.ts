import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import type { Storage } from '../lib/storage/storage.ts';
import { createAuditChainService } from '../modules/audit-chain/audit-chain-service.ts';
import { avatarKeyOf } from '../modules/profile/profile-service.ts';

type Row = Record<string, unknown>;
const rows = async (db: Db, query: SQL): Promise<Row[]> =>
  ((await db.execute(query)) as unknown as { rows: Row[] }).rows;

/** The seeded admin's security-relevant columns: the fuzz run may rename the admin, nothing more. */
export async function adminFingerprint(db: Db, email: string): Promise<Row | undefined> {
  const [row] = await rows(
    db,
    sql`select u.id, lower(u.email) as email, u.password_hash, u.role_id, u.is_deletable, r.type as role_type
        from users u join roles r on r.id = u.role_id where lower(u.email) = lower(${email})`,
  );
  return row;
}

export type Invariant = { name: string; violations: unknown[] };

/**
 * Queries that must return nothing after any sequence of API calls. Each names what it checks;
 * a non-empty answer is the evidence of the inconsistency.
 */
export async function checkInvariants(db: Db, storage: Storage): Promise<Invariant[]> {
  const checks: Array<[string, SQL]> = [
    [
      'table_row_counts[devices] equals the number of devices (migrations 0009/0010)',
      sql`select c.n, (select count(*) from devices) as actual from table_row_counts c
          where c.table_name = 'devices' and c.n <> (select count(*) from devices)
          union all select null, count(*) from devices having not exists (select 1 from table_row_counts where table_name = 'devices')`,
    ],
    [
      'log_counters equal the real per-scope counts of access and error logs (migrations 0007, 0013)',
      // The scopes this check knows, compared where the counters keep them (e-mail came with a later
      // migration; scopes added after this check are not compared).
      sql`with actual as (
            select 'access' as log_kind, 'all' as scope, '' as key, count(*) as n from access_logs
            union all select 'access', 'user', user_id, count(*) from access_logs where user_id is not null group by user_id
            union all select 'access', 'machine', machine_number, count(*) from access_logs where machine_number is not null group by machine_number
            union all select 'access', 'email', user_email, count(*) from access_logs where user_email is not null group by user_email
            union all select 'error', 'all', '', count(*) from error_logs
            union all select 'error', 'user', user_id, count(*) from error_logs where user_id is not null group by user_id
            union all select 'error', 'machine', machine_number, count(*) from error_logs where machine_number is not null group by machine_number
            union all select 'error', 'email', user_email, count(*) from error_logs where user_email is not null group by user_email),
          kept as (select distinct log_kind, scope from log_counters union select 'access', 'all' union select 'error', 'all')
          select coalesce(a.log_kind, c.log_kind) as log_kind, coalesce(a.scope, c.scope) as scope, coalesce(a.key, c.key) as key,
                 a.n as actual, c.n as counted
          from (select a.* from actual a join kept k on k.log_kind = a.log_kind and k.scope = a.scope) a
          full join (select * from log_counters where scope in ('all', 'user', 'machine', 'email')) c
            on c.log_kind = a.log_kind and c.scope = a.scope and c.key = a.key
          where coalesce(a.n, 0) <> coalesce(c.n, 0)`,
    ],
    [
      "devices.subscription_status mirrors its latest subscription's status (migration 0008)",
      sql`select d.id, d.subscription_status, latest.status from devices d
          join lateral (select s.status from subscriptions s where lower(s.machine_serial_number) = lower(d.serial_number)
                        order by s.created_at desc, s.id desc limit 1) latest on true
          where d.subscription_status is distinct from latest.status`,
    ],
    [
      'every user has a role of a known type',
      sql`select u.id from users u left join roles r on r.id = u.role_id where r.id is null or r.type not in ('app', 'admin', 'clinic')`,
    ],
    [
      // A clinic's user belongs to a customer and holds a clinic role; the supplier's, neither (decision 088).
      "a user has a customer exactly when its role is a clinic's",
      sql`select u.id from users u join roles r on r.id = u.role_id where (u.customer_id is not null) <> (r.type = 'clinic')`,
    ],
    [
      'no session belongs to a missing user',
      sql`select s.id from sessions s left join users u on u.id = s.user_id where u.id is null`,
    ],
    [
      'every patient and treatment record points at existing rows',
      sql`
          select p.id from patients p left join devices d on d.id = p.device_id where d.id is null
          union all select t.id from treatment_records t left join devices d on d.id = t.device_id where d.id is null`,
    ],
    [
      'no e-mail address or user name is held twice (case-insensitively)',
      sql`
          select lower(email) from users group by lower(email) having count(*) > 1
          union all select lower(user_name) from users group by lower(user_name) having count(*) > 1`,
    ],
    [
      'subscription amounts are positive and statuses known',
      sql`select id from subscriptions where amount_cents <= 0 or status not in (1, 2, 3, 4)`,
    ],
    [
      "a secret's change history holds no value, old or new (migration 0049)",
      sql`select id from record_history where secret and (old_value is not null or new_value is not null)`,
    ],
    [
      "the latest history row of a device's, user's or role's field holds its value now: no change without its history (migration 0049)",
      sql`with fields(kind, field, col) as (values ('device', 'machineNumber', 'machine_number'),
            ('device', 'location', 'location'), ('device', 'city', 'city'), ('device', 'status', 'status'),
            ('device', 'address', 'address'), ('user', 'email', 'email'), ('user', 'phone', 'phone'),
            ('user', 'roleId', 'role_id'), ('role', 'roleName', 'role_name'), ('role', 'permissions', 'permissions')),
          latest as (select distinct on (h.record_kind, h.record_id, h.field) h.record_kind, h.record_id, h.field, h.new_value
            from record_history h join fields f on f.kind = h.record_kind and f.field = h.field
            order by h.record_kind, h.record_id, h.field, h.id desc),
          now_held as (select 'device' as kind, id::text as id, to_jsonb(d) as row from devices d
            union all select 'user', id::text, to_jsonb(u) from users u
            union all select 'role', id::text, to_jsonb(r) from roles r)
          select l.record_kind, l.record_id, l.field, l.new_value, nullif(n.row -> f.col, 'null') as now
          from latest l join fields f on f.kind = l.record_kind and f.field = l.field
          join now_held n on n.kind = l.record_kind and n.id = l.record_id
          where l.new_value is distinct from nullif(n.row -> f.col, 'null')`,
    ],
  ];
  const results: Invariant[] = [];
  for (const [name, query] of checks) results.push({ name, violations: await rows(db, query) });

  // Rows that name a stored file: the file is there (an upload is all or nothing).
  const missing: unknown[] = [];
  for (const r of await rows(db, sql`select id, storage_key from app_updates`)) {
    if (!(await storage.exists(String(r.storage_key)))) missing.push({ appUpdate: r.id });
  }
  for (const r of await rows(db, sql`select id, profile_image from users where profile_image is not null`)) {
    const key = avatarKeyOf(String(r.profile_image));
    if (key && !(await storage.exists(key))) missing.push({ userImage: r.id });
  }
  results.push({ name: 'every app update and profile image row has its stored file', violations: missing });
  // Whatever the routes wrote, by whichever path, went into the audit chains in order (decision 080).
  const audit = await createAuditChainService({ db }).verify();
  results.push({
    name: "the audit logs' hash chains are whole (migration 0048)",
    violations: audit.chains.filter((c) => !c.whole).map((c) => ({ log: c.log, ...c.firstBreak })),
  });
  return results;
}
