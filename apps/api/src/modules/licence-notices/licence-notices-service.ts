import { sql } from 'drizzle-orm';
import {
  licenceNoticeKind,
  licenceNoticeMails,
  type LicenceNoticeFacts,
  type LicenceNoticeMail,
} from '@app/contract/licence-notices';
import type { Db } from '#api/db/client.ts';
import { rowsOf } from '#api/db/rows-of.ts';
import { licenceNotices } from '#api/db/schema/licences.ts';
import type { Mailer, StoredMail } from '#api/lib/mailer.ts';
import { recordEvent } from '#api/modules/subscriptions/subscription-history.ts';

const day = 86_400_000;
/** A lapse older than this is not announced: a first start on old data must not mail every customer. */
const lapseNoticeDays = 7;
/** Notices written per run; the next run takes the rest. */
const batch = 200;

/** A notice owed: its machine, kind and period, and the subscription whose customer it goes to. */
type Due = {
  deviceId: string;
  serialNumber: string;
  kind: string;
  periodKey: string;
  paidThrough: Date;
  activeUntil: Date;
  graceUntil: Date | null;
  subscriptionId: string;
  email: string;
  fullName: string;
  amountCents: number;
  renews: boolean;
};

type LicenceNoticesDeps = {
  db: Db;
  mailer: Pick<Mailer, 'sendWithin'>;
  now: () => Date;
  /** Days before the paid-through date a reminder goes, e.g. [14, 3]. */
  reminderDays: readonly number[];
  /** The customer's page to update the card of a recurring plan, where there is one. */
  cardUpdateLink: ((subscriptionId: string) => string) | null;
  /** The subscription's payment link. */
  paymentLink: (subscriptionId: string) => string;
};

const toDate = (v: unknown) => (v == null ? null : v instanceof Date ? v : new Date(String(v)));

/**
 * Reminder and dunning mails (issue 34 item 6): before the paid-through date, on a failed renewal and
 * on lapse. Each is claimed in `licence_notices` (machine, kind, paid-through day) in the transaction
 * that writes it to the outbox, so a run that finds it claimed (by this instance earlier, or by
 * another instance at the same moment: the second insert waits for the first and then does nothing)
 * sends nothing. A renewal moves the paid-through day and so starts a new period.
 */
export function createLicenceNotices({
  db,
  mailer,
  now,
  reminderDays,
  cardUpdateLink,
  paymentLink,
}: LicenceNoticesDeps) {
  /**
   * A renewing plan's reminder points to the card, a failed renewal to the card (or the payment
   * link); a plan that does not renew and a lapse have nothing the customer can pay by themselves.
   */
  const linkOf = (notice: Due): string | null => {
    const card = cardUpdateLink?.(notice.subscriptionId) ?? null;
    if (notice.kind === licenceNoticeKind.renewalFailed) return card ?? paymentLink(notice.subscriptionId);
    if (notice.kind.startsWith('reminder-') && notice.renews) return card;
    return null;
  };

  /** The notices owed now and not yet claimed, found from the machines' licence columns. */
  async function due(at: Date): Promise<Due[]> {
    const now = at.toISOString();
    const days = reminderDays.length ? reminderDays : [0];
    const daysArray = sql`array[${sql.join(
      days.map((n) => sql`${n}`),
      sql`, `,
    )}]::int[]`;
    const rows = rowsOf(
      await db.execute(sql`
        with owed as (
          -- The smallest reminder whose window has begun: one that comes late (the machine was paid
          -- with less time left) is the nearer one, never both.
          select d.id, d.serial_number, d.licence_paid_through as pt, d.licence_active_until as au,
            d.licence_grace_until as gu,
            'reminder-' || (select min(n) from unnest(${daysArray}) n
                            where d.licence_active_until <= ${now}::timestamptz + make_interval(days => n)) as kind
          from devices d
          where d.licence_state = 'active'
            and d.licence_active_until > ${now}::timestamptz
            and d.licence_active_until <= ${now}::timestamptz + make_interval(days => ${Math.max(...days)}::int)
          union all
          select d.id, d.serial_number, d.licence_paid_through, d.licence_active_until, d.licence_grace_until,
            ${licenceNoticeKind.renewalFailed}
          from devices d
          where d.licence_state = 'grace' and exists (
            select 1 from subscriptions s where s.device_id = d.id and s.renewal_failed_at is not null
              and s.paid_through = d.licence_paid_through)
          union all
          select d.id, d.serial_number, d.licence_paid_through, d.licence_active_until, d.licence_grace_until,
            ${licenceNoticeKind.lapsed}
          from devices d
          where d.licence_state = 'lapsed' and d.licence_paid_through is not null
            and d.licence_since > ${now}::timestamptz - make_interval(days => ${lapseNoticeDays}::int)
        ), keyed as (
          select owed.*, to_char(owed.pt at time zone 'UTC', 'YYYY-MM-DD') as period_key from owed
        )
        select k.id, k.serial_number, k.kind, k.period_key, k.pt, k.au, k.gu,
          s.id as subscription_id, s.email, s.full_name, s.amount_cents,
          (s.is_recurring and not s.cancel_at_period_end and s.cancelled_at is null) as renews
        from keyed k
        -- The customer of the subscription that carries the machine's paid-through date.
        join lateral (
          select s.* from subscriptions s
          where s.device_id = k.id and s.paid_through = k.pt
          order by (s.renewal_failed_at is not null) desc, s.created_at desc
          limit 1
        ) s on true
        where not exists (
          select 1 from licence_notices n
          where n.device_id = k.id and n.kind = k.kind and n.period_key = k.period_key)
        order by k.au
        limit ${batch}`),
    );
    return rows.map((r) => ({
      deviceId: String(r.id),
      serialNumber: String(r.serial_number),
      kind: String(r.kind),
      periodKey: String(r.period_key),
      paidThrough: toDate(r.pt)!,
      activeUntil: toDate(r.au)!,
      graceUntil: toDate(r.gu),
      subscriptionId: String(r.subscription_id),
      email: String(r.email),
      fullName: String(r.full_name),
      amountCents: Number(r.amount_cents),
      renews: r.renews === true || r.renews === 't',
    }));
  }

  function mailOf(notice: Due, at: Date, link: string | null): LicenceNoticeMail {
    const facts: LicenceNoticeFacts = {
      fullName: notice.fullName,
      serialNumber: notice.serialNumber,
      paidThrough: notice.paidThrough,
      graceUntil: notice.graceUntil,
      amountCents: notice.amountCents,
      renews: notice.renews,
      link,
    };
    if (notice.kind === licenceNoticeKind.renewalFailed) return licenceNoticeMails.renewalFailed(facts);
    if (notice.kind === licenceNoticeKind.lapsed) return licenceNoticeMails.lapsed(facts);
    const daysLeft = Math.max(1, Math.ceil((notice.activeUntil.getTime() - at.getTime()) / day));
    return licenceNoticeMails.reminder(facts, daysLeft);
  }

  /** Claims one notice and writes its mail in one transaction; the delivery starts once committed. */
  async function send(notice: Due, at: Date): Promise<StoredMail | null> {
    const start = await db.transaction(async (tx) => {
      const claimed = await tx
        .insert(licenceNotices)
        .values({
          deviceId: notice.deviceId,
          kind: notice.kind,
          periodKey: notice.periodKey,
          subscriptionId: notice.subscriptionId,
          sentAt: at,
        })
        .onConflictDoNothing()
        .returning({ deviceId: licenceNotices.deviceId });
      if (!claimed.length) return null;
      const link = linkOf(notice);
      const mail = mailOf(notice, at, link);
      await recordEvent(tx, {
        subscriptionId: notice.subscriptionId,
        kind: 'reminded',
        at,
        detail: { notice: notice.kind, period: notice.periodKey, to: notice.email, subject: mail.subject },
      });
      // A mail with a link to the customer's card or payment is cleared from the outbox once sent.
      return mailer.sendWithin(tx, { to: notice.email, ...mail, secret: link !== null });
    });
    return start?.() ?? null;
  }

  return {
    /** Writes every notice owed now (up to a batch); answers the mails started. */
    async run(): Promise<StoredMail[]> {
      const at = now();
      const sent: StoredMail[] = [];
      for (const notice of await due(at)) {
        const mail = await send(notice, at);
        if (mail) sent.push(mail);
      }
      return sent;
    },
  };
}
export type LicenceNotices = ReturnType<typeof createLicenceNotices>;
