import { escapeHtml, type MailMessage } from '#api/lib/mailer.ts';

/** Mail has no reader's time zone: times are UTC, and say so. */
const utc = (at: Date) => `${at.toISOString().replace('T', ' ').slice(0, 16)} UTC`;

export type BreakGlassNotice = {
  to: string;
  admin: { name: string; email: string };
  patientId: string;
  machineNumber: string | null;
  reason: string;
  declaredAt: Date;
  expiresAt: Date;
  /** The review screen, as a full address. */
  link: string;
};

/**
 * The notice every security reviewer gets at once when an admin breaks the glass (decision 082):
 * who, which patient (by id and machine, never the patient's data), why, for how long, and where to
 * sign it off. Readable as plain text; nothing secret, so the Outbox shows it.
 */
export function breakGlassMail(notice: BreakGlassNotice): MailMessage {
  const who = `${notice.admin.name} (${notice.admin.email})`;
  const where = notice.machineNumber ? ` on machine ${notice.machineNumber}` : '';
  const lines = [
    `${who} declared an emergency and opened the contact details of patient ${notice.patientId}${where}.`,
    '',
    `Reason given: ${notice.reason}`,
    `Opened: ${utc(notice.declaredAt)}`,
    `Access ends: ${utc(notice.expiresAt)}`,
    '',
    'This use stays in the break-glass review list until a reviewer other than that admin signs it off.',
  ];
  const text = [...lines, `Review it: ${notice.link}`].join('\n');
  const html =
    `<!doctype html><html><body style="font-family:sans-serif">` +
    lines
      .filter((l) => l !== '')
      .map((l) => `<p>${escapeHtml(l)}</p>`)
      .join('') +
    `<p><a href="${escapeHtml(notice.link)}">Review it</a></p></body></html>`;
  return {
    to: notice.to,
    subject: `Break-glass access by ${notice.admin.name}: sign-off needed`,
    text,
    html,
  };
}
