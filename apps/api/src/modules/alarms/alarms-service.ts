import { and, desc, eq, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import {
  alarmCountCap,
  alarmMessages,
  type Alarm,
  type AlarmDetail,
  type AlarmList,
  type AlarmRule,
  type AlarmState,
} from '@app/contract/alarms';
import type { Db } from '#api/db/client.ts';
import { alarms } from '#api/db/schema/alarms.ts';
import { devices } from '#api/db/schema/devices.ts';
import { tableRowCounts } from '#api/db/schema/table-row-counts.ts';
import { ConflictError, NotFoundError } from '#api/lib/errors.ts';
import { containsPattern, offsetOf, pageCount } from '#api/lib/pagination.ts';

export type AlarmListParams = {
  page: number;
  limit: number;
  state: AlarmState;
  rule?: AlarmRule | undefined;
  search?: string | undefined;
};

export const alarmColumns = {
  id: alarms.id,
  deviceId: alarms.deviceId,
  machineNumber: devices.machineNumber,
  serialNumber: devices.serialNumber,
  rule: alarms.rule,
  detail: alarms.detail,
  openedAt: alarms.openedAt,
  acknowledgedAt: alarms.acknowledgedAt,
  acknowledgedBy: alarms.acknowledgedBy,
  resolvedAt: alarms.resolvedAt,
  resolvedBy: alarms.resolvedBy,
};
type AlarmRow = typeof alarms.$inferSelect & { machineNumber: string; serialNumber: string };

export const toAlarm = (r: AlarmRow): Alarm => ({
  _id: r.id,
  deviceId: r.deviceId,
  machineNumber: r.machineNumber,
  serialNumber: r.serialNumber,
  rule: r.rule as AlarmRule,
  detail: r.detail as AlarmDetail,
  openedAt: r.openedAt.toISOString(),
  acknowledgedAt: r.acknowledgedAt?.toISOString() ?? null,
  acknowledgedBy: r.acknowledgedBy,
  resolvedAt: r.resolvedAt?.toISOString() ?? null,
  resolvedBy: r.resolvedBy,
});

/** The Alarms screen, the bell's count and an admin's acknowledgement and resolution (decision 049). */
export function createAlarmsService({ db, now }: { db: Db; now: () => Date }) {
  /** Counters kept by triggers (migration 0025): every alarm, and the open ones. */
  async function counters(): Promise<{ all: number; open: number }> {
    const rows = await db
      .select({ name: tableRowCounts.tableName, n: tableRowCounts.n })
      .from(tableRowCounts)
      .where(inArray(tableRowCounts.tableName, ['alarms', 'alarms_open']));
    const of = (name: string) => Number(rows.find((r) => r.name === name)?.n ?? 0);
    return { all: of('alarms'), open: of('alarms_open') };
  }

  /** A filtered list's matches, counted up to the cap (a rule or a search over years of past alarms). */
  async function cappedCount(where: SQL | undefined): Promise<number> {
    const inner = db
      .select({ one: sql`1`.as('one') })
      .from(alarms)
      .innerJoin(devices, eq(devices.id, alarms.deviceId))
      .where(where)
      .limit(alarmCountCap)
      .as('matches');
    const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(inner);
    return Number(row?.n ?? 0);
  }

  async function list({ page, limit, state, rule, search }: AlarmListParams): Promise<AlarmList> {
    const open = state === 'open';
    const term = search?.toLowerCase();
    const where = and(
      open ? isNull(alarms.resolvedAt) : isNotNull(alarms.resolvedAt),
      rule ? eq(alarms.rule, rule) : undefined,
      term ? sql`${devices.searchText} like ${containsPattern(term)}` : undefined,
    );
    // Open alarms newest first; past ones by when they were resolved (each order has its partial index).
    const order = open
      ? [desc(alarms.openedAt), desc(alarms.id)]
      : [desc(alarms.resolvedAt), desc(alarms.id)];
    const [rows, total] = await Promise.all([
      db
        .select(alarmColumns)
        .from(alarms)
        .innerJoin(devices, eq(devices.id, alarms.deviceId))
        .where(where)
        .orderBy(...order)
        .limit(limit)
        .offset(offsetOf(page, limit)),
      rule || term
        ? cappedCount(where)
        : counters().then(({ all, open: openCount }) => (open ? openCount : all - openCount)),
    ]);
    return { alarms: rows.map(toAlarm), totalPages: pageCount(total, limit), total, page, limit };
  }

  async function find(id: string): Promise<AlarmRow> {
    const [row] = await db
      .select(alarmColumns)
      .from(alarms)
      .innerJoin(devices, eq(devices.id, alarms.deviceId))
      .where(eq(alarms.id, id))
      .limit(1);
    if (!row) throw new NotFoundError(alarmMessages.notFound);
    return row;
  }

  /**
   * Applies one admin step to an open alarm in a single conditional UPDATE, so two admins (or the
   * evaluator resolving it at the same moment) cannot both win; the loser gets 409.
   */
  async function step(id: string, changes: Partial<typeof alarms.$inferInsert>, extra?: SQL) {
    const before = await find(id);
    if (before.resolvedAt) throw new ConflictError(alarmMessages.alreadyResolved);
    const updated = await db
      .update(alarms)
      .set(changes)
      .where(and(eq(alarms.id, id), isNull(alarms.resolvedAt), extra))
      .returning({ id: alarms.id });
    if (!updated.length) {
      const after = await find(id);
      throw new ConflictError(
        after.resolvedAt ? alarmMessages.alreadyResolved : alarmMessages.alreadyAcknowledged,
      );
    }
    return toAlarm(await find(id));
  }

  return {
    list,

    /** The bell: one row of the counters, never a count of the table. */
    openCount: async () => ({ open: (await counters()).open }),

    /** The machine an alarm is about (for the audit row), or 404. */
    machineOf: async (id: string) => {
      const { deviceId, machineNumber } = await find(id);
      return { deviceId, machineNumber };
    },

    /** Seen and being looked after: it stays open until it clears or is resolved. */
    acknowledge: async (id: string, by: string): Promise<Alarm> => {
      const before = await find(id);
      if (before.acknowledgedAt && !before.resolvedAt)
        throw new ConflictError(alarmMessages.alreadyAcknowledged);
      return step(id, { acknowledgedAt: now(), acknowledgedBy: by }, isNull(alarms.acknowledgedAt));
    },

    /** Closed by an admin; if the condition still holds, the next check opens a new alarm. */
    resolve: (id: string, by: string): Promise<Alarm> => step(id, { resolvedAt: now(), resolvedBy: by }),
  };
}
export type AlarmsService = ReturnType<typeof createAlarmsService>;
