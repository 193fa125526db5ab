import { asc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '#api/db/client.ts';
import { alarmDigestRecipients, alarms } from '#api/db/schema/alarms.ts';
import { devices } from '#api/db/schema/devices.ts';
import type { Mailer } from '#api/lib/mailer.ts';
import { rowsOf } from '#api/db/rows-of.ts';
import { alarmDigestMail } from './alarm-digest-mail.ts';
import { alarmColumns, toAlarm, type AlarmsService } from './alarms-service.ts';
import type { Permission } from '@app/contract/permissions';

/** Who may receive the digest: the permission of the Alarms screen (a bound value, never spliced). */
const digestPermission: Permission = 'devices.view';

/** The most alarms one digest lists; the rest are counted ("…and 12 more"). */
const listedPerDigest = 50;

/** The latest digest moment at or before `at`: today at `hourUtc` o'clock UTC, or yesterday's. */
export function digestMoment(at: Date, hourUtc: number): Date {
  const today = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate(), hourUtc);
  return new Date(today <= at.getTime() ? today : today - 86_400_000);
}

/**
 * The daily digest (decision 049): an admin turns it on for themself; from the digest hour (UTC)
 * on, each such admin whose role may see alarms (devices.view) gets one mail a day listing the open
 * alarms, or none on a day when nothing is open.
 */
export function createAlarmDigest({
  db,
  now,
  mailer,
  alarmsService,
  hourUtc,
  alarmsUrl,
}: {
  db: Db;
  now: () => Date;
  mailer: Pick<Mailer, 'send'>;
  alarmsService: Pick<AlarmsService, 'openCount'>;
  hourUtc: number;
  /** The Alarms screen, filtered to open ones, as a full address for the mail. */
  alarmsUrl: string;
}) {
  return {
    async enabled(userId: string): Promise<boolean> {
      const [row] = await db
        .select({ userId: alarmDigestRecipients.userId })
        .from(alarmDigestRecipients)
        .where(eq(alarmDigestRecipients.userId, userId))
        .limit(1);
      return row !== undefined;
    },

    async setEnabled(userId: string, enabled: boolean): Promise<boolean> {
      // From when it is turned on: the first digest is the next digest hour's, not one at once.
      if (enabled)
        await db.insert(alarmDigestRecipients).values({ userId, createdAt: now() }).onConflictDoNothing();
      else await db.delete(alarmDigestRecipients).where(eq(alarmDigestRecipients.userId, userId));
      return enabled;
    },

    /**
     * Mails today's digest to everyone due: not served since the latest digest hour. Answers how
     * many mails went (none on a day when nothing is open). Recipients are claimed (last_sent_at
     * moved to now) in one UPDATE before any mail goes, so two API instances, or two runs, never
     * send one twice; the mail itself is in the outbox and retried from there.
     */
    async sendDue(): Promise<number> {
      const at = now();
      const moment = digestMoment(at, hourUtc);
      const claimed = rowsOf(
        await db.execute(sql`
          update alarm_digest_recipients r set last_sent_at = ${at.toISOString()}::timestamptz
          from users u join roles ro on ro.id = u.role_id
          where u.id = r.user_id and ro.type = 'admin' and ${digestPermission}::text = any(ro.permissions)
            and coalesce(r.last_sent_at, r.created_at) < ${moment.toISOString()}::timestamptz
          returning u.email`),
      ).map((r) => String(r.email));
      if (!claimed.length) return 0;
      const { open } = await alarmsService.openCount();
      if (open === 0) return 0;
      const oldest = await db
        .select(alarmColumns)
        .from(alarms)
        .innerJoin(devices, eq(devices.id, alarms.deviceId))
        .where(isNull(alarms.resolvedAt))
        .orderBy(asc(alarms.openedAt), asc(alarms.id))
        .limit(listedPerDigest);
      const listed = oldest.map(toAlarm);
      for (const to of claimed)
        await mailer.send(alarmDigestMail({ to, open, alarms: listed, link: alarmsUrl }));
      return claimed.length;
    },
  };
}
export type AlarmDigestService = ReturnType<typeof createAlarmDigest>;
