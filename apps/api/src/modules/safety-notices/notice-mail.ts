import { safetyNoticeKindLabels, type SafetyNoticeKind } from '@app/contract/safety-notices-texts';
import { escapeHtml, type MailMessage } from '#api/lib/mailer.ts';

export type NoticeMail = {
  to: string;
  reference: string;
  title: string;
  kind: SafetyNoticeKind;
  description: string;
  remedyText: string;
  machines: { machineNumber: string; serialNumber: string }[];
  /** The clinic's acknowledgement page, with its token, as a full address. */
  link: string;
};

/**
 * The notice a clinic contact gets (decision 084): what the problem is, what to do, their affected
 * machines and the link to acknowledge it. The link only records an acknowledgement for this contact
 * and this notice, so the mail is not a secret: the Outbox shows it, and an admin may forward it.
 */
export function noticeMail(notice: NoticeMail): MailMessage {
  const kind = safetyNoticeKindLabels[notice.kind];
  const machines = notice.machines.map((m) => `- machine ${m.machineNumber}, serial ${m.serialNumber}`);
  const text = [
    `${kind} ${notice.reference}: ${notice.title}`,
    '',
    notice.description,
    '',
    'What to do:',
    notice.remedyText,
    '',
    'Your affected machines:',
    ...machines,
    '',
    'Please confirm that your clinic has received this notice:',
    notice.link,
  ].join('\n');
  const html =
    `<!doctype html><html><body style="font-family:sans-serif">` +
    `<h1 style="font-size:1.25rem">${escapeHtml(`${kind} ${notice.reference}: ${notice.title}`)}</h1>` +
    `<p>${escapeHtml(notice.description)}</p>` +
    `<h2 style="font-size:1rem">What to do</h2><p>${escapeHtml(notice.remedyText)}</p>` +
    `<h2 style="font-size:1rem">Your affected machines</h2><ul>` +
    notice.machines
      .map((m) => `<li>${escapeHtml(`Machine ${m.machineNumber}, serial ${m.serialNumber}`)}</li>`)
      .join('') +
    `</ul><p><a href="${escapeHtml(notice.link)}">Acknowledge this notice</a></p></body></html>`;
  return {
    to: notice.to,
    subject: `${kind} ${notice.reference}: ${notice.title}`,
    text,
    html,
  };
}
