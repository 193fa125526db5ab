import { escapeHtml, type MailMessage } from '#api/lib/mailer.ts';

/**
 * Told to the OLD address when an admin changes a user's email: whoever held the account there
 * learns it has moved (a hijacked admin account re-pointing another's sign-in shows up at once).
 */
export function emailChangedMail({
  oldEmail,
  newEmail,
  userName,
  changedBy,
  at,
}: {
  oldEmail: string;
  newEmail: string;
  userName: string;
  changedBy: string;
  at: Date;
}): MailMessage {
  const when = at.toISOString().replace('T', ' ').slice(0, 16);
  const lines = [
    `Hello ${userName},`,
    '',
    `The email address of your console account was changed from ${oldEmail} to ${newEmail} by ${changedBy} on ${when} UTC.`,
    'Password resets and notices now go to the new address.',
    '',
    'If you did not expect this, contact your administrator at once.',
  ];
  const html = `<!doctype html><html><body style="font-family:sans-serif">
${lines
  .filter(Boolean)
  .map((l) => `<p>${escapeHtml(l)}</p>`)
  .join('\n')}
</body></html>`;
  return {
    to: oldEmail,
    subject: 'The email address of your account was changed',
    text: lines.join('\n'),
    html,
  };
}
