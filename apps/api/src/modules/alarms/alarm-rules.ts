import { sql, type SQL } from 'drizzle-orm';
import type { AlarmRule } from '@app/contract/alarms';
import { appVersionSortKey, devices, lastSeenSortKey } from '#api/db/schema/devices.ts';

/*
 * Each rule is one query over the fleet: the machines whose condition holds now, with what the
 * rule saw (the alarm's detail). The evaluator opens an alarm for each that has none open and
 * resolves the open ones that are no longer listed. Every query reads an index range, not the
 * whole fleet: last seen, app version, the error logs of the last hour, revoked credentials in use.
 */

export type RuleInputs = {
  at: Date;
  /** DEVICE_OFFLINE_MINUTES: the same threshold the device list's Online column uses. */
  offlineMinutes: number;
  offlineHours: number;
  errorBurst: number;
  /** The lowest supported versionCode, or null: no minimum, the rule holds for no machine. */
  minimum: number | null;
};

/** A timestamptz as the ISO text the contract's AlarmDetail carries, whatever the session's time zone. */
const iso = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const time = (ms: number) => sql`${new Date(ms).toISOString()}::timestamptz`;

/** An enrolled machine: one live credential (a machine never enrolled or revoked is not expected to call). */
const enrolled = sql`exists (select 1 from device_credentials c
  where c.device_id = ${devices.id} and c.revoked_at is null)`;
const active = sql`${devices.status} = 2`;

const none = sql`select null::uuid as device_id, null::jsonb as detail where false`;

export const ruleConditions: Record<AlarmRule, (i: RuleInputs) => SQL> = {
  /** Active, enrolled, seen once, and Offline (quiet past DEVICE_OFFLINE_MINUTES) for longer than ALARM_OFFLINE_HOURS. */
  offline: ({ at, offlineMinutes, offlineHours }) => {
    const cutoff = at.getTime() - offlineMinutes * 60_000 - offlineHours * 3_600_000;
    return sql`select ${devices.id} as device_id,
        jsonb_build_object('lastSeenAt', ${iso(sql`${devices.lastSeenAt}`)}) as detail
      from ${devices}
      where ${lastSeenSortKey(devices)} > '-infinity'::timestamptz
        and ${lastSeenSortKey(devices)} < ${time(cutoff)}
        and ${active} and ${enrolled}`;
  },

  /** An enrolled machine whose reported versionCode is below the minimum supported. */
  'app-version': ({ minimum }) => {
    if (minimum === null) return none;
    return sql`select ${devices.id} as device_id,
        jsonb_build_object('versionCode', ${devices.appVersionCode}, 'minimum', ${minimum}::int) as detail
      from ${devices}
      where ${appVersionSortKey(devices)} >= 0 and ${appVersionSortKey(devices)} < ${minimum}::int
        and ${enrolled}`;
  },

  /**
   * More than ALARM_ERROR_BURST error logs sent by the machine's app that happened within the last
   * hour and arrived within it: a backlog of old errors synced after a week offline is no burst.
   */
  'error-burst': ({ at, errorBurst }) => {
    const since = time(at.getTime() - 3_600_000);
    return sql`select ${devices.id} as device_id,
        jsonb_build_object('errors', b.n, 'threshold', ${errorBurst}::int) as detail
      from (
        select e.machine_number, count(*)::int as n from error_logs e
        where e.created_at > ${since} and e.received_at > ${since} and e.client_id is not null
        group by e.machine_number having count(*) > ${errorBurst}::int
      ) b
      join ${devices} on ${devices.machineNumber} = b.machine_number`;
  },

  /** A revoked credential used within the Online window: the machine still calls (revoked-calls.ts). */
  'revoked-calls': ({ at, offlineMinutes }) => {
    const since = time(at.getTime() - offlineMinutes * 60_000);
    return sql`select c.device_id, jsonb_build_object('lastCallAt', ${iso(sql`max(c.revoked_call_at)`)}) as detail
      from device_credentials c
      where c.revoked_call_at > ${since} and c.revoked_at is not null
      group by c.device_id`;
  },

  /**
   * A machine whose licence is in grace (issue 34): the licence ledger opens this alarm in the
   * statement that moves a machine into grace and resolves it when it leaves; the check here is the
   * same condition, so a machine in grace before the rule existed gets its alarm too. An equality on
   * devices_licence_state_id_idx.
   */
  'licence-grace': () =>
    sql`select ${devices.id} as device_id, jsonb_strip_nulls(jsonb_build_object(
        'paidThrough', ${iso(sql`${devices.licencePaidThrough}`)},
        'graceUntil', ${iso(sql`${devices.licenceGraceUntil}`)})) as detail
      from ${devices}
      where ${devices.licenceState} = 'grace'`,
};

/**
 * One rule checked in one statement, on one snapshot: an alarm opened for each machine in the
 * condition that has none open (the partial unique index turns a second check, even from another
 * API instance, into nothing), and each open alarm whose machine left the condition resolved by
 * itself (resolved_at without resolved_by).
 */
export const checkRule = (rule: AlarmRule, condition: SQL, at: Date) => sql`
  with cond as materialized (${condition}),
  opened as (
    insert into alarms (device_id, rule, detail, opened_at)
    select device_id, ${rule}, detail, ${at.toISOString()}::timestamptz from cond
    on conflict (device_id, rule) where resolved_at is null do nothing
    returning 1
  ),
  cleared as (
    update alarms set resolved_at = ${at.toISOString()}::timestamptz
    where alarms.rule = ${rule} and alarms.resolved_at is null
      and not exists (select 1 from cond where cond.device_id = alarms.device_id)
    returning 1
  )
  select (select count(*)::int from opened) as opened, (select count(*)::int from cleared) as cleared`;
