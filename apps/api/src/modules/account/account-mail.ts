import { escapeHtml } from '#api/lib/mailer.ts';

/** The password-reset code email: a plain-text part and a simple HTML part. */
export function otpMail({
  otp,
  userName,
  validMinutes,
}: {
  otp: string;
  userName: string;
  validMinutes: number;
}) {
  // Never the code itself: subjects show on lock screens and in notification previews, and are kept
  // in mail logs that bodies are not.
  const subject = 'Your password reset code';
  const text = [
    `Hello ${userName},`,
    '',
    `Your one-time code to reset your password is: ${otp}`,
    '',
    `It is valid for ${validMinutes} minutes and works once.`,
    'If you did not ask to reset your password, you can ignore this email; your password stays as it is.',
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:sans-serif">
<p>Hello ${escapeHtml(userName)},</p>
<p>Your one-time code to reset your password is:</p>
<p style="font-size:24px;font-weight:bold;letter-spacing:4px">${otp}</p>
<p>It is valid for ${validMinutes} minutes and works once.</p>
<p>If you did not ask to reset your password, you can ignore this email; your password stays as it is.</p>
</body></html>`;
  return { subject, text, html, secret: true };
}
