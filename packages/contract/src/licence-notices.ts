/*
 * The mails a machine's licence sends its customer (issue 34 item 6, decision 068): a reminder some
 * days before the paid-through date (LICENCE_REMINDER_DAYS, 14 and 3 by default), one when a renewal's
 * payment fails, and one when the licence lapses. Each goes at most once per machine, kind and paid
 * period (the API claims it in `licence_notices` before it is written to the outbox).
 */

/** What a notice is about; with the paid-through day it counts down to, what makes it one of a kind. */
export const licenceNoticeKind = {
  reminder: (days: number) => `reminder-${days}` as const,
  renewalFailed: 'renewal-failed',
  lapsed: 'lapsed',
} as const;

/** What a notice's text needs to know. Dates are read in UTC. */
export type LicenceNoticeFacts = {
  fullName: string;
  serialNumber: string;
  /** The day the payments made so far license the machine to. */
  paidThrough: Date;
  /** The day the machine stops starting treatments unless a payment arrives. */
  graceUntil: Date | null;
  /** The amount a renewal charges, in cents. */
  amountCents: number;
  /** A recurring plan that renews by itself (not one-time, not cancelled at its period's end). */
  renews: boolean;
  /** Where the customer updates the card (a renewing plan) or pays (a failed renewal without one). */
  link: string | null;
};

const months = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** "14 March 2027": a mail is read anywhere, so the month is spelt out and the day is UTC's. */
export const noticeDay = (d: Date) => `${d.getUTCDate()} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()}`;

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;
const daysText = (n: number) => (n === 1 ? '1 day' : `${n} days`);

const greeting = (f: LicenceNoticeFacts) => [`Hello ${f.fullName},`, ''];
const graceLine = (f: LicenceNoticeFacts) =>
  f.graceUntil
    ? `The machine keeps working until ${noticeDay(f.graceUntil)}; after that it finishes the treatments already running but starts no new ones until a payment arrives.`
    : 'Without a payment the machine will stop starting new treatments.';

export type LicenceNoticeMail = { subject: string; text: string };

export const licenceNoticeMails = {
  /** `days` before the paid-through date (rounded up). */
  reminder(f: LicenceNoticeFacts, days: number): LicenceNoticeMail {
    const day = noticeDay(f.paidThrough);
    if (f.renews)
      return {
        subject: `Machine ${f.serialNumber}: your subscription renews on ${day}`,
        text: [
          ...greeting(f),
          `The subscription for machine ${f.serialNumber} is paid through ${day}, ${daysText(days)} from now.`,
          `It renews by itself on that day: ${dollars(f.amountCents)} will be charged to your card.`,
          ...(f.link ? ['', `To pay with another card, update it here: ${f.link}`] : []),
          '',
          'Nothing else needs doing.',
        ].join('\n'),
      };
    return {
      subject: `Machine ${f.serialNumber}: your licence ends on ${day}`,
      text: [
        ...greeting(f),
        `The licence for machine ${f.serialNumber} is paid through ${day}, ${daysText(days)} from now. It does not renew by itself: to keep the machine licensed, please contact us.`,
        '',
        graceLine(f),
      ].join('\n'),
    };
  },

  /** A renewal's payment failed: the machine is in grace. */
  renewalFailed(f: LicenceNoticeFacts): LicenceNoticeMail {
    return {
      subject: `Machine ${f.serialNumber}: the payment for your subscription failed`,
      text: [
        ...greeting(f),
        `We could not take the payment of ${dollars(f.amountCents)} that renews the subscription for machine ${f.serialNumber} (paid through ${noticeDay(f.paidThrough)}).`,
        '',
        graceLine(f),
        ...(f.link
          ? ['', `Please update your card here; the payment is then tried again: ${f.link}`]
          : ['', 'Please contact us to update your card.']),
      ].join('\n'),
    };
  },

  /** The grace period has run out. */
  lapsed(f: LicenceNoticeFacts): LicenceNoticeMail {
    return {
      subject: `Machine ${f.serialNumber}: the licence has lapsed`,
      text: [
        ...greeting(f),
        `The licence for machine ${f.serialNumber} was paid through ${noticeDay(f.paidThrough)}${f.graceUntil ? `, and its grace period ended on ${noticeDay(f.graceUntil)}` : ''}.`,
        'The machine finishes the treatments already running but starts no new ones until a payment arrives.',
        '',
        'Please contact us to license it again.',
      ].join('\n'),
    };
  },
};
