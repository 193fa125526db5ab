import { clinicRoleLabels, type ClinicRole } from '@app/contract/clinic-users-texts';
import { escapeHtml, type MailMessage } from '#api/lib/mailer.ts';

/**
 * The invitation a clinic's manager or staff member gets (decision 088): who invites them to which
 * clinic, the link to set their password, and how long it works. The link creates the account, so
 * the mail is a secret like a password reset code: the Outbox keeps it masked for other admins.
 */
export function invitationMail(input: {
  to: string;
  customerName: string;
  role: ClinicRole;
  invitedBy: string;
  link: string;
  validHours: number;
}): MailMessage {
  const role = clinicRoleLabels[input.role].toLowerCase();
  const lines = [
    'Hello,',
    '',
    `${input.invitedBy} invites you to the clinic portal of ${input.customerName} as ${role}.`,
    '',
    'Open this link to set your password and sign in:',
    input.link,
    '',
    `The link works once, for ${input.validHours} hours. If you did not expect this invitation, you can ignore this email.`,
  ];
  const html =
    `<!doctype html><html><body style="font-family:sans-serif">` +
    `<p>Hello,</p><p>${escapeHtml(lines[2]!)}</p>` +
    `<p><a href="${escapeHtml(input.link)}">Set your password and sign in</a></p>` +
    `<p>${escapeHtml(input.link)}</p>` +
    `<p>${escapeHtml(lines[7]!)}</p></body></html>`;
  return {
    to: input.to,
    subject: `Your invitation to the ${input.customerName} clinic portal`,
    text: lines.join('\n'),
    html,
    secret: true,
  };
}
