import { sql, type SQL } from 'drizzle-orm';
import type {
  NoticeCounts,
  NoticeMachine,
  NoticeMachines,
  NoticeMachinesQuery,
} from '@app/contract/safety-notices';
import type { NoticeMachineFilter } from '@app/contract/safety-notices-texts';
import type { Db } from '#api/db/client.ts';
import { rowsOf } from '#api/db/rows-of.ts';
import type { safetyNotices } from '#api/db/schema/safety-notices.ts';
import { offsetOf, pageCount } from '#api/lib/pagination.ts';

type Notice = typeof safetyNotices.$inferSelect;

/** A timestamp as ISO text in SQL: the same on PGlite and PostgreSQL, whatever their drivers make of dates. */
const iso = (at: SQL) => sql`to_char(${at} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * When a machine of the notice was remedied, read live (never stored, so it cannot go stale): for a
 * release, the machine runs it or a later one now, since it first reported such a version (the
 * version history the heartbeats write); for a command batch, when its copy for the machine succeeded.
 */
function remediedAt(notice: Notice): SQL {
  if (notice.remedyKind === 'app-update' && notice.remedyVersionCode !== null) {
    const code = notice.remedyVersionCode;
    return sql`(select case when d.app_version_code >= ${code} then coalesce(
        (select min(v.first_seen_at) from device_app_versions v
          where v.device_id = d.id and v.version_code >= ${code}), ${notice.sentAt})
      end from devices d where d.id = m.device_id)`;
  }
  if (notice.remedyKind === 'command-batch' && notice.remedyId)
    return sql`(select min(c.finished_at) from machine_commands c
      where c.batch_id = ${notice.remedyId}::uuid and c.device_id = m.device_id and c.state = 'succeeded')`;
  return sql`null::timestamptz`;
}

/** The frozen set with each machine's contact, acknowledgement and remedy, as one subquery. */
const machineRows = (notice: Notice) => sql`(select m.device_id, m.machine_number, m.serial_number,
    m.app_version_code, m.app_version_name, c.email as contact, c.notified_at, c.acknowledged_at,
    c.acknowledged_by, ${remediedAt(notice)} as remedied_at
  from safety_notice_machines m left join safety_notice_contacts c on c.id = m.contact_id
  where m.notice_id = ${notice.id}::uuid) r`;

const filters: Record<NoticeMachineFilter, SQL> = {
  notified: sql`r.contact is not null and r.acknowledged_at is null`,
  acknowledged: sql`r.acknowledged_at is not null`,
  'no-contact': sql`r.contact is null`,
  remedied: sql`r.remedied_at is not null`,
  'not-remedied': sql`r.remedied_at is null`,
};

type Row = {
  device_id: string | null;
  machine_number: string;
  serial_number: string;
  app_version_code: number | null;
  app_version_name: string | null;
  contact: string | null;
  notified_at: string | null;
  acknowledged_at: string | null;
  acknowledged_by: string | null;
  remedied_at: string | null;
};

const toMachine = (r: Row): NoticeMachine => ({
  deviceId: r.device_id,
  machineNumber: r.machine_number,
  serialNumber: r.serial_number,
  appVersionCode: r.app_version_code === null ? null : Number(r.app_version_code),
  appVersionName: r.app_version_name,
  contact: r.contact,
  status: r.acknowledged_at ? 'acknowledged' : r.contact ? 'notified' : 'no-contact',
  notifiedAt: r.notified_at,
  acknowledgedAt: r.acknowledged_at,
  acknowledgedBy: r.acknowledged_by,
  remediedAt: r.remedied_at,
});

const selectRows = (notice: Notice, where: SQL) => sql`select r.device_id, r.machine_number,
    r.serial_number, r.app_version_code, r.app_version_name, r.contact, ${iso(sql`r.notified_at`)} as notified_at,
    ${iso(sql`r.acknowledged_at`)} as acknowledged_at, r.acknowledged_by, ${iso(sql`r.remedied_at`)} as remedied_at
  from ${machineRows(notice)} where ${where}`;

/** The notice's counts: machines, contacts, awaiting acknowledgement, acknowledged, without contact, remedied. */
export async function noticeCounts(db: Db, notice: Notice): Promise<NoticeCounts> {
  const [row] = rowsOf<Record<keyof NoticeCounts, number>>(
    await db.execute(sql`select count(*)::int as machines,
        count(distinct lower(r.contact))::int as contacts,
        (count(*) filter (where ${filters.notified}))::int as notified,
        (count(*) filter (where ${filters.acknowledged}))::int as acknowledged,
        (count(*) filter (where ${filters['no-contact']}))::int as "noContact",
        (count(*) filter (where ${filters.remedied}))::int as remedied
      from ${machineRows(notice)}`),
  );
  return {
    machines: Number(row?.machines ?? 0),
    contacts: Number(row?.contacts ?? 0),
    notified: Number(row?.notified ?? 0),
    acknowledged: Number(row?.acknowledged ?? 0),
    noContact: Number(row?.noContact ?? 0),
    remedied: Number(row?.remedied ?? 0),
  };
}

/** One page of the status view, by serial, with the counts of the whole notice. */
export async function noticeMachines(
  db: Db,
  notice: Notice,
  { status, page, limit }: NoticeMachinesQuery,
): Promise<NoticeMachines> {
  const where = status ? filters[status] : sql`true`;
  const [rows, [total], counts] = await Promise.all([
    db.execute(
      sql`${selectRows(notice, where)} order by r.serial_number, r.machine_number limit ${limit} offset ${offsetOf(page, limit)}`,
    ),
    db
      .execute(sql`select count(*)::int as n from ${machineRows(notice)} where ${where}`)
      .then((res) => rowsOf<{ n: number }>(res)),
    noticeCounts(db, notice),
  ]);
  const n = Number(total?.n ?? 0);
  return {
    machines: rowsOf<Row>(rows).map(toMachine),
    total: n,
    totalPages: pageCount(n, limit),
    page,
    limit,
    counts,
  };
}

/** Every machine of the notice (the regulator's CSV), in chunks of 1,000 by serial. */
export async function* allNoticeMachines(
  db: Db,
  notice: Notice,
  status: NoticeMachineFilter | undefined,
): AsyncGenerator<NoticeMachine[]> {
  const where = status ? filters[status] : sql`true`;
  for (let offset = 0; ; offset += 1000) {
    const rows = rowsOf<Row>(
      await db.execute(
        sql`${selectRows(notice, where)} order by r.serial_number, r.machine_number limit 1000 offset ${offset}`,
      ),
    );
    if (rows.length) yield rows.map(toMachine);
    if (rows.length < 1000) return;
  }
}
