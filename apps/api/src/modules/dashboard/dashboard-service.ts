import { eq, gte, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import {
  expiringWithinDays,
  highlightDays,
  licenceLapsingDays,
  treatmentChartDays,
  type Operations,
  type TreatmentDay,
} from '@app/contract/dashboard';
import type { Permission } from '@app/contract/permissions';
import { subscriptionStatuses } from '@app/contract/checkout';
import type { Db } from '#api/db/client.ts';
import { treatmentDailyCounts } from '#api/db/schema/dashboard.ts';
import { tableRowCounts } from '#api/db/schema/table-row-counts.ts';
import { devices } from '#api/db/schema/devices.ts';
import { subscriptions } from '#api/db/schema/subscriptions.ts';
import { sessions, users } from '#api/db/schema/users.ts';
import { deviceFilterWhere } from '../devices/device-filters.ts';
import { createOnlineCounts } from '../devices/online-counts.ts';
import { expiringWithin, statusAt } from '../subscriptions/subscription-filters.ts';

const dayMs = 24 * 3600_000;
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const { pending, failed } = subscriptionStatuses;

/**
 * The dashboard's Operations figures (decision 050). Each comes from something the database keeps
 * small: counters kept by triggers (machines, open alarms, treatments per day) or a range count on
 * an index whose range is small by nature (machines seen in the last minutes, links still open).
 */
export function createDashboardService({
  db,
  now,
  offlineMinutes,
}: {
  db: Db;
  now: () => Date;
  offlineMinutes: number;
}) {
  const counter = async (name: string) =>
    (
      await db.select({ n: tableRowCounts.n }).from(tableRowCounts).where(eq(tableRowCounts.tableName, name))
    )[0]?.n ?? 0;
  const countOf = async (query: Promise<{ n: number }[]>) => (await query)[0]?.n ?? 0;
  const rowsIn = (table: PgTable, where: SQL) =>
    countOf(
      db
        .select({ n: sql<number>`count(*)::int` })
        .from(table)
        .where(where),
    );
  const countSubscriptions = (where: SQL) => rowsIn(subscriptions, where);

  const onlineCounts = createOnlineCounts({ db, offlineMinutes });
  async function machines(at: Date) {
    const { online, offline, never } = await onlineCounts(at);
    return { online, offline, neverSeen: never, offlineMinutes };
  }

  /**
   * With Device Management's own filters, so each figure is the total its link shows: equalities on
   * devices_licence_state_id_idx, and the lapsing ones a range of the partial index on the active
   * licences' end (devices_licence_active_until_idx); index-only counts of the machines that need an
   * admin, not of the fleet.
   */
  const countDevices = async (filters: Parameters<typeof deviceFilterWhere>[0], at: Date) =>
    (
      await db
        .select({ n: sql<number>`count(*)::int` })
        .from(devices)
        .where(deviceFilterWhere(filters, at, at).where)
    )[0]!.n;
  async function licenceFigures(at: Date) {
    const count = (filters: Parameters<typeof deviceFilterWhere>[0]) => countDevices(filters, at);
    const [grace, lapsed, lapsing] = await Promise.all([
      count({ licence: 'grace' }),
      count({ licence: 'lapsed' }),
      count({ licenceEndsWithin: licenceLapsingDays }),
    ]);
    return { grace, lapsed, lapsing };
  }

  /** Drift: the partial index devices_settings_drift_idx; failed commands: machine_commands_failed_idx. */
  async function remoteFigures(at: Date) {
    const [settingsDrift, failedCommands] = await Promise.all([
      countDevices({ settings: 'drift' }, at),
      countDevices({ commands: 'failed' }, at),
    ]);
    return { settingsDrift, failedCommands };
  }

  /** As the Subscriptions list shows them, with the list's own filters (so a figure is its list's total). */
  async function subscriptionFigures(at: Date) {
    const [pendingCount, failedCount, expiring] = await Promise.all([
      countSubscriptions(statusAt(pending, at)),
      countSubscriptions(statusAt(failed, at)),
      countSubscriptions(expiringWithin(expiringWithinDays, at)),
    ]);
    return { pending: pendingCount, failed: failedCount, expiringIn7Days: expiring };
  }

  async function treatments(at: Date) {
    const first = utcDay(at.getTime() - (treatmentChartDays - 1) * dayMs);
    const rows = await db
      .select({ day: treatmentDailyCounts.day, n: treatmentDailyCounts.n })
      .from(treatmentDailyCounts)
      .where(gte(treatmentDailyCounts.day, first));
    const byDay = new Map(rows.map((r) => [r.day, Number(r.n)]));
    const days: TreatmentDay[] = [];
    for (let i = treatmentChartDays - 1; i >= 0; i--) {
      const day = utcDay(at.getTime() - i * dayMs);
      days.push({ day, count: byDay.get(day) ?? 0 });
    }
    return {
      today: days.at(-1)!.count,
      last30Days: days.reduce((sum, d) => sum + d.count, 0),
      days,
    };
  }

  /**
   * The spec's four tiles over the last `highlightDays` days (issue 35 item 6), each with the
   * permission of its list: range counts on the created-at indexes, the first links per customer
   * over the subscriptions (one row per payment link), the distinct admins of the sessions opened.
   */
  async function highlights(at: Date, may: (p: Permission) => boolean): Promise<Operations['highlights']> {
    const since = new Date(at.getTime() - highlightDays * dayMs);
    const sales = may('subscriptions.view');
    const [newOrders, newCustomers, userRegistrations, uniqueVisitors] = await Promise.all([
      sales ? countSubscriptions(gte(subscriptions.createdAt, since)) : undefined,
      sales
        ? countOf(
            db
              .select({ n: sql<number>`count(*)::int` })
              .from(
                db
                  .select({ first: sql`min(${subscriptions.createdAt})`.as('first') })
                  .from(subscriptions)
                  .groupBy(sql`lower(${subscriptions.email})`)
                  .as('customers'),
              )
              .where(sql`first >= ${since.toISOString()}::timestamptz`),
          )
        : undefined,
      may('users.manage') ? rowsIn(users, gte(users.createdAt, since)) : undefined,
      may('logs.view')
        ? countOf(
            db
              .select({ n: sql<number>`count(distinct ${sessions.userId})::int` })
              .from(sessions)
              .where(gte(sessions.createdAt, since)),
          )
        : undefined,
    ]);
    return { newOrders, newCustomers, userRegistrations, uniqueVisitors };
  }

  /** Only the groups the role's permissions show; the queries run side by side. */
  async function operations(permissions: readonly Permission[]): Promise<Operations> {
    const at = now();
    const may = (p: Permission) => permissions.includes(p);
    const [h, m, alarms, l, r, s, t] = await Promise.all([
      highlights(at, may),
      may('devices.view') ? machines(at) : undefined,
      may('devices.view') ? counter('alarms_open') : undefined,
      may('devices.view') ? licenceFigures(at) : undefined,
      may('devices.view') ? remoteFigures(at) : undefined,
      may('subscriptions.view') ? subscriptionFigures(at) : undefined,
      may('patients.view') ? treatments(at) : undefined,
    ]);
    return {
      highlights: h,
      machines: m,
      openAlarms: alarms,
      licences: l,
      remote: r,
      subscriptions: s,
      treatments: t,
    };
  }

  return { operations };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
