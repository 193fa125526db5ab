import { subscriptionStatuses, type PlanType } from '@app/contract/subscriptions';
import { ascii, mailDomains } from '@app/fake-data/people';
import type { Rng } from '@app/fake-data/random';
import type { Db } from '../db/client.ts';
import { subscriptions } from '../db/schema/subscriptions.ts';
import { addPeriod } from '../lib/payments/payment-provider.ts';
import { newSubscriptionId } from '../modules/subscriptions/subscriptions-service.ts';
import type { DemoContext } from './demo-context.ts';

const day = 24 * 3600_000;
const linkDays = 7;
const customers = [
  'Anna Weber',
  'Marco Bianchi',
  'Claire Dubois',
  'Javier Ruiz',
  'Sofie Jensen',
  'Piotr Nowak',
  'Inês Costa',
  'Tom Fischer',
  'Aiko Tanaka',
  'Leila Haddad',
  'Ravi Patel',
  'Emma Larsen',
  'Noah Cohen',
  'Lucía Torres',
  'Jan Novák',
];
const amounts = [49, 99, 149.99, 199, 299.5, 499, 749, 1200];
const { pending, complete, expired, failed } = subscriptionStatuses;
type Status = (typeof subscriptionStatuses)[keyof typeof subscriptionStatuses];

/**
 * Payment links for most demo devices, in every status: Pending and Failed links still open,
 * Expired ones lapsed unpaid, Complete ones paid once or renewing by month or year. Ids are random
 * like real ones (a link id is a secret); everything else follows the seed.
 */
export async function seedSubscriptions(db: Db, rng: Rng, { now, devices }: DemoContext): Promise<number> {
  const rows: (typeof subscriptions.$inferInsert)[] = [];
  // The first four devices show one status each, so every status is on screen whatever the draw.
  const forced: Status[] = [pending, complete, expired, failed];

  devices.forEach((device, i) => {
    if (i >= forced.length && !rng.chance(0.75)) return;
    const count = i >= forced.length && rng.chance(0.2) ? 2 : 1;
    for (let k = 0; k < count; k++) {
      const latest = k === count - 1;
      const status: Status =
        latest && i < forced.length ? forced[i]! : latest ? pickStatus(rng) : rng.pick([complete, expired]);
      const name = rng.pick(customers);
      const [first, last] = name.split(' ') as [string, string];
      const isRecurring = rng.chance(0.6);
      const planType: PlanType | null = isRecurring ? (rng.chance(0.7) ? 'month' : 'year') : null;
      // Older links for the earlier subscription of a device.
      const ageDays =
        status === pending || status === failed
          ? rng.float(0.05, linkDays - 0.5, 3)
          : rng.float(linkDays + 1, k < count - 1 ? 700 : 300, 3);
      const createdAt = new Date(now.getTime() - ageDays * day);
      let expiredAt = new Date(createdAt.getTime() + linkDays * day);
      let paidAt: Date | null = null;
      if (status === complete) {
        paidAt = new Date(createdAt.getTime() + rng.float(0.01, 3, 3) * day);
        if (planType) {
          // Renewed every period since it was first paid, so the paid period runs past today.
          expiredAt = addPeriod(paidAt, planType);
          while (expiredAt <= now) expiredAt = addPeriod(expiredAt, planType);
        }
      }
      rows.push({
        id: newSubscriptionId(),
        fullName: name,
        email: `${ascii(first)}.${ascii(last)}@${rng.pick(mailDomains)}`,
        machineSerialNumber: device.serialNumber,
        deviceId: device.id,
        // What the payment licenses (decision 068): the paid period, or a year for a one-time payment.
        paidThrough: paidAt ? (planType ? expiredAt : new Date(paidAt.getTime() + 365 * day)) : null,
        amountCents: Math.round(rng.pick(amounts) * 100),
        isRecurring,
        planType,
        status,
        createdAt,
        updatedAt: paidAt ?? createdAt,
        expiredAt,
        paidAt,
        provider: status === pending || status === expired ? null : 'demo',
        lastPaymentError:
          status === failed
            ? rng.pick(['Your card was declined.', 'Your card has insufficient funds.'])
            : null,
      });
    }
  });
  overdue(rows, devices.slice(forced.length, -1), now);
  if (rows.length) await db.insert(subscriptions).values(rows);
  return rows.length;
}

/**
 * Two machines paid once a year and more ago: one a few days past its paid-through date (in grace,
 * with its alarm), one a month past (lapsed: the demo fleet's machine refuses to treat), so the
 * licence figures show every state (issue 35 item 1). Each is its machine's only subscription.
 */
function overdue(rows: (typeof subscriptions.$inferInsert)[], eligible: DemoContext['devices'], now: Date) {
  const only = eligible.flatMap((device) => {
    const own = rows.filter((r) => r.deviceId === device.id);
    return own.length === 1 && own[0]!.status === complete && !own[0]!.isRecurring ? own : [];
  });
  only.slice(0, 2).forEach((row, k) => {
    const paidThrough = new Date(now.getTime() - (k === 0 ? 3 : 30) * day);
    const paidAt = new Date(paidThrough.getTime() - 365 * day);
    const createdAt = new Date(paidAt.getTime() - day);
    Object.assign(row, {
      createdAt,
      paidAt,
      updatedAt: paidAt,
      paidThrough,
      expiredAt: new Date(createdAt.getTime() + linkDays * day),
    });
  });
}

function pickStatus(rng: Rng): Status {
  const r = rng.next();
  if (r < 0.45) return complete;
  if (r < 0.7) return pending;
  if (r < 0.85) return expired;
  return failed;
}
