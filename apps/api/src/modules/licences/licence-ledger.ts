import { sql, type SQL } from 'drizzle-orm';
import type { AlarmRule } from '@app/contract/alarms';
import type { LicenceCause, LicenceState } from '@app/contract/licences';
import type { Db } from '#api/db/client.ts';
import { rowsOf } from '#api/db/rows-of.ts';

/** Which machines a recompute looks at. */
export type LicenceScope =
  | { all: true }
  /** Those whose licence the clock may have changed: an active one past its time, a grace run out, an exemption ended. */
  | { due: true }
  | { deviceIds: readonly string[] };

/** Why a recompute runs: kept with every change it makes (the history and the audit trail). */
export type LicenceChangeCause = {
  cause: LicenceCause;
  actorId?: string | null;
  actorEmail?: string | null;
  reason?: string | null;
  subscriptionId?: string | null;
};

export type LicenceChange = {
  deviceId: string;
  machineNumber: string;
  fromState: LicenceState;
  toState: LicenceState;
};

/** The alarm a machine entering grace raises (issue 34; modules/alarms checks the same condition). */
const graceAlarm: AlarmRule = 'licence-grace';
const isoUtc = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const scopeWhere = (scope: LicenceScope, at: string): SQL => {
  if ('all' in scope) return sql`true`;
  if ('deviceIds' in scope)
    return scope.deviceIds.length
      ? sql`d.id in (${sql.join(
          scope.deviceIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`
      : sql`false`;
  return sql`(d.licence_state = 'active' and d.licence_active_until <= ${at}::timestamptz)
    or (d.licence_state = 'grace' and d.licence_grace_until <= ${at}::timestamptz)
    or (d.licence_state = 'exempt' and not exists (
      select 1 from licence_exemptions x where x.device_id = d.id and x.until > ${at}::timestamptz))`;
};

/**
 * Derives the licence of every machine in `scope` from its subscriptions and exemption, in one
 * statement (decision 068), and writes what changed: the machine's licence columns (its version
 * grows, so the machine fetches a new token), a history event per change, and an audit row per
 * change of state, and the "Licence in grace" alarm: opened on entering grace, resolved on leaving
 * it. The rules, in SQL so a machine and the whole fleet are computed the same way:
 *
 * - paid through: the latest `paid_through` of the machine's subscriptions;
 * - active until: the same, or earlier where that subscription's renewal failed (a failure on a
 *   subscription another one outlasts changes nothing);
 * - grace until: `graceDays` after the active time, or the latest grace an admin granted, and never
 *   before the paid-through date;
 * - exempt while an exemption lasts; unlicensed with no paid subscription; else active, grace or
 *   lapsed by the clock.
 */
export async function recomputeLicences(
  db: Db,
  {
    scope,
    at,
    graceDays,
    why,
  }: { scope: LicenceScope; at: Date; graceDays: number; why: LicenceChangeCause },
): Promise<LicenceChange[]> {
  const now = at.toISOString();
  const changed = rowsOf(
    await db.execute(sql`
      with scope as (
        select d.id, d.licence_state from devices d where ${scopeWhere(scope, now)}
      ), subs as (
        select s.device_id,
          max(s.paid_through) as paid_through,
          max(case when s.renewal_failed_at is not null then least(s.paid_through, s.renewal_failed_at)
                   else s.paid_through end) as active_until,
          max(s.grace_until) as granted_grace
        from subscriptions s join scope on s.device_id = scope.id
        where s.paid_through is not null
        group by s.device_id
      ), facts as (
        select scope.id, scope.licence_state as old_state, subs.paid_through as pt, subs.active_until as au,
          greatest(subs.paid_through, subs.active_until + make_interval(days => ${graceDays}::int),
                   subs.granted_grace) as gu,
          x.until as exempt_until
        from scope
        left join subs on subs.device_id = scope.id
        left join licence_exemptions x on x.device_id = scope.id
      ), next as (
        select id, old_state, pt, au, gu,
          case when exempt_until > ${now}::timestamptz then 'exempt'
               when pt is null then 'unlicensed'
               when ${now}::timestamptz < au then 'active'
               when ${now}::timestamptz < gu then 'grace'
               else 'lapsed' end as state
        from facts
      ), changed as (
        update devices d set
          licence_state = n.state,
          licence_paid_through = n.pt,
          licence_active_until = n.au,
          licence_grace_until = n.gu,
          licence_version = d.licence_version + 1,
          licence_since = case when d.licence_state <> n.state then ${now}::timestamptz else d.licence_since end
        from next n
        where d.id = n.id
          and (d.licence_state, d.licence_paid_through, d.licence_active_until, d.licence_grace_until)
            is distinct from (n.state, n.pt, n.au, n.gu)
        returning d.id, d.machine_number, n.old_state, n.state, n.pt, n.gu
      ), events as (
        insert into licence_events (device_id, at, from_state, to_state, cause, actor_email, reason,
          subscription_id, paid_through, grace_until)
        select id, ${now}::timestamptz, old_state, state, ${why.cause}, ${why.actorEmail ?? null},
          ${why.reason ?? null}, ${why.subscriptionId ?? null}, pt, gu
        from changed
      ), audited as (
        insert into access_logs (created_at, user_id, user_email, resource, machine_number, record_kind, record_id)
        select ${now}::timestamptz, ${why.actorId ?? null}, ${why.actorEmail ?? null},
          left('LICENCE ' || machine_number || ': ' || old_state || ' -> ' || state || ' (' || ${why.cause}
               || coalesce(': ' || ${why.reason ?? null}, '') || ')', 200),
          machine_number, 'device', id::text
        from changed where old_state is distinct from state
      ), grace_alarms as (
        -- Entering grace opens the machine's alarm at once (at most one open per machine and rule:
        -- the partial unique index); leaving grace resolves it by itself.
        insert into alarms (device_id, rule, detail, opened_at)
        select id, ${graceAlarm}, jsonb_strip_nulls(jsonb_build_object(
            'paidThrough', ${isoUtc(sql`pt`)}, 'graceUntil', ${isoUtc(sql`gu`)})), ${now}::timestamptz
        from changed where state = 'grace' and old_state is distinct from 'grace'
        on conflict (device_id, rule) where resolved_at is null do nothing
      ), grace_cleared as (
        -- The machines that left grace as one array, looked up in the open alarms' index: as a join
        -- on \`changed\`, the planner (which cannot estimate a CTE) scanned every changed machine
        -- once per open alarm (45 s at 100,000 changed and 6,000 open, bench:licence-sweep).
        update alarms a set resolved_at = ${now}::timestamptz
        where a.device_id = any(array(
            select c.id from changed c where c.old_state = 'grace' and c.state <> 'grace'))
          and a.rule = ${graceAlarm} and a.resolved_at is null
      )
      select id, machine_number, old_state, state from changed`),
  );
  return changed.map((r) => ({
    deviceId: String(r.id),
    machineNumber: String(r.machine_number),
    fromState: r.old_state as LicenceState,
    toState: r.state as LicenceState,
  }));
}
