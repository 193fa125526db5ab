import { alarmDetailText, alarmRuleLabels, type Alarm } from '@app/contract/alarms';
import { escapeHtml, type MailMessage } from '#api/lib/mailer.ts';

/** Mail has no reader's time zone: times are UTC, and say so. */
const utc = (iso: string) => `${iso.replace('T', ' ').slice(0, 16)} UTC`;

/**
 * The daily digest of open alarms for one admin: how many, the oldest first (up to the number
 * given), each with its machine, rule, what was seen and whether someone acknowledged it.
 */
export function alarmDigestMail({
  to,
  open,
  alarms,
  link,
}: {
  to: string;
  open: number;
  alarms: Alarm[];
  link: string;
}): MailMessage {
  const lineOf = (a: Alarm) =>
    `${a.machineNumber}: ${alarmRuleLabels[a.rule]}. ${alarmDetailText(a, utc)}. Open since ${utc(a.openedAt)}` +
    (a.acknowledgedBy ? `, acknowledged by ${a.acknowledgedBy}.` : ', not acknowledged.');
  const lines = alarms.map(lineOf);
  const more = open > alarms.length ? `…and ${open - alarms.length} more.` : null;
  const heading = open === 1 ? '1 alarm is open.' : `${open} alarms are open.`;
  const text = [heading, '', ...lines, ...(more ? [more] : []), '', `See them all: ${link}`].join('\n');
  const html =
    `<!doctype html><html><body style="font-family:sans-serif">` +
    `<p>${escapeHtml(heading)}</p><ul>${lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>` +
    (more ? `<p>${escapeHtml(more)}</p>` : '') +
    `<p><a href="${escapeHtml(link)}">See them all</a></p></body></html>`;
  return { to, subject: `Alarm digest: ${heading}`, text, html };
}
